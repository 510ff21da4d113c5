/**
 * The floor for any HTML rewrite that must find links without a DOM: one pass of htmlparser2's
 * tokenizer (the one `rewriteTrackedHtml` uses, with the same options) over the document, with
 * callbacks that do nothing.
 */
import { Tokenizer } from "htmlparser2";

const ignore = () => {};
const callbacks = {
  onattribdata: ignore,
  onattribentity: ignore,
  onattribend: ignore,
  onattribname: ignore,
  oncdata: ignore,
  onclosetag: ignore,
  oncomment: ignore,
  ondeclaration: ignore,
  onend: ignore,
  onopentagend: ignore,
  onopentagname: ignore,
  onprocessinginstruction: ignore,
  onselfclosingtag: ignore,
  ontext: ignore,
  ontextentity: ignore,
};

/** Tokenizes `html` once; returns its length so the work stays observable. */
export function tokenizerPass(html: string): number {
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: false }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  return html.length;
}
