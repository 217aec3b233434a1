/**
 * Browser boot script: hydrates every server-rendered island with its props. Each island's
 * module is loaded from the folder of this script (`/_islands/<Name>.js`).
 *
 * @module
 */
import { h, hydrate } from "preact";

const islands = document.querySelectorAll<HTMLElement>("x-island");
await Promise.all([...islands].map(async (el) => {
  const name = el.dataset.island ?? "";
  const mod = await import(new URL(`./${name}.js`, import.meta.url).href);
  hydrate(h(mod.default, JSON.parse(el.dataset.props ?? "{}")), el);
  el.dataset.hydrated = "true";
}));
document.documentElement.dataset.hydrated = "true";
