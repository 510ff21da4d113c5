/**
 * The exact one-sided 95% upper bound on a rate of which `observed` of `trials` were seen
 * (Clopper-Pearson): the highest true rate under which seeing this few would still happen one
 * time in twenty. 0 of 100 gives 3.0%: a short list cannot show a rate under 2%.
 */
export function upperBound95(observed: number, trials: number): number {
  if (trials === 0 || observed >= trials) return 1;
  let low = observed / trials;
  let high = 1;
  // The chance of seeing at most `observed` falls as the rate rises: bisect for where it is 5%.
  for (let step = 0; step < 60; step++) {
    const rate = (low + high) / 2;
    if (atMost(observed, trials, rate) > 0.05) low = rate;
    else high = rate;
  }
  return high;
}

/** P(X <= observed) for X ~ Binomial(trials, rate), summed term by term. */
function atMost(observed: number, trials: number, rate: number): number {
  let term = (1 - rate) ** trials;
  let sum = term;
  for (let k = 0; k < observed; k++) {
    term *= ((trials - k) / (k + 1)) * (rate / (1 - rate));
    sum += term;
  }
  return sum;
}
