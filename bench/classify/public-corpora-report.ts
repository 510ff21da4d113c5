import { judgeCorpus } from "./judge-corpus.js";
import { printCorpus } from "./print-corpus.js";
import { crawlerUserAgentsCorpus, topUserAgentsCorpus } from "./public-corpora.js";

/**
 * The second measurement of bench:classify: the classifier on user agents labelled by their
 * publishers. Each user agent is one lone open and one lone click (see lone-hits.ts), so the
 * figures measure the user-agent rules only, never the address, timing or pattern rules.
 */
export function printPublicCorpora(): void {
  console.log(
    "\npublic corpora: each user agent as a lone GET open and a lone GET click (one hit per message), " +
      "from 203.0.113.0/24, 5 min after the send: only the user agent can decide",
  );
  for (const corpus of [topUserAgentsCorpus(), crawlerUserAgentsCorpus()]) printCorpus(judgeCorpus(corpus));
}
