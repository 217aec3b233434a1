/**
 * `deno run --allow-write tools/make_dataset.ts [PATH]`: writes the small ShareGPT-format dataset
 * that ships for the demo and the tests (`data/sharegpt_small.json`): 300 conversations of a human
 * question and the assistant's reply, built from a fixed seed, so the file is the same on every
 * machine and nothing is downloaded. Prompt and reply lengths spread as chat traffic does (short
 * questions, a few long ones; replies from a sentence to a few paragraphs).
 *
 * @module
 */
import { createRandom, type Random } from "../lib/engine/mod.ts";
import { print } from "../lib/log.ts";

/** Conversations in the file. */
export const CONVERSATIONS = 300;
/** The seed the committed file was generated with. */
export const SEED = 29;

const TOPICS = [
  "a sourdough starter",
  "the French Revolution",
  "binary search trees",
  "a vegetable garden in spring",
  "the water cycle",
  "electric bicycles",
  "learning to play the guitar",
  "a job interview",
  "the solar system",
  "compound interest",
  "a birthday party for a child",
  "writing a short story",
  "a leaking kitchen tap",
  "the history of the printing press",
  "training for a first marathon",
  "photosynthesis",
  "a trip to Japan",
  "SQL joins",
  "a small business budget",
  "the rules of chess",
];

const ASKS = [
  "Can you explain {t} to me in simple words?",
  "What are the most common mistakes people make with {t}?",
  "Give me a step-by-step plan for {t}.",
  "I am new to {t}. Where should I start, and what should I avoid?",
  "Write a short summary of {t} for a school report.",
  "Compare two ways of approaching {t} and say which one you would choose.",
  "What questions should I ask an expert about {t}?",
  "List five facts about {t} that most people do not know.",
];

const CONTEXT = [
  "I have tried reading about it before but got lost in the details.",
  "Please keep it practical, with examples I can follow.",
  "My friend told me it is easier than it looks, but I am not sure.",
  "I only have an hour a week to spend on this.",
  "It is for a presentation next Monday, so it needs to be clear.",
  "I would also like to know how long it usually takes.",
];

const SENTENCES = [
  "The first thing to understand is that {t} is mostly about a few simple ideas.",
  "Start small, check your progress often, and change one thing at a time.",
  "Many people skip the basics, and that is where most of the trouble begins.",
  "A good example makes this clearer than any definition could.",
  "Think of it as a process with several stages rather than a single step.",
  "If something goes wrong, write down what you changed and go back one step.",
  "There is no single right answer; it depends on your goals and your time.",
  "Experts usually agree on the fundamentals and argue about the details.",
  "It helps to keep notes, because patterns only show up after a while.",
  "Be patient with yourself: the second attempt is almost always better.",
  "In short, {t} rewards steady practice more than sudden effort.",
  "Here is a simple way to remember it: observe, try, measure and adjust.",
];

const pick = <T>(xs: readonly T[], r: Random): T => xs[Math.floor(r.next() * xs.length)]!;

/** A count in [lo, hi], skewed to the low end (most chat turns are short). */
const skewed = (lo: number, hi: number, r: Random) =>
  lo + Math.floor(r.next() * r.next() * (hi - lo + 1));

/** The dataset: `CONVERSATIONS` conversations from `SEED`. */
export function makeDataset(
  n = CONVERSATIONS,
  seed = SEED,
): { id: string; conversations: { from: string; value: string }[] }[] {
  const r = createRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const topic = pick(TOPICS, r);
    const fill = (s: string) => s.replaceAll("{t}", topic);
    const ask = [fill(pick(ASKS, r))];
    for (let k = skewed(0, 4, r); k > 0; k--) ask.push(pick(CONTEXT, r));
    const reply: string[] = [];
    for (let k = skewed(1, 24, r); k > 0; k--) reply.push(fill(pick(SENTENCES, r)));
    return {
      id: `localbench-${String(i).padStart(4, "0")}`,
      conversations: [
        { from: "human", value: ask.join(" ") },
        { from: "gpt", value: reply.join(" ") },
      ],
    };
  });
}

/** The file's text (two-space JSON and a final newline, as `deno fmt` keeps it). */
export function datasetText(): string {
  return JSON.stringify(makeDataset(), null, 2) + "\n";
}

if (import.meta.main) {
  const path = Deno.args[0] ?? new URL("../data/sharegpt_small.json", import.meta.url).pathname;
  await Deno.writeTextFile(path, datasetText());
  print(`Wrote ${CONVERSATIONS} conversations to ${path}`);
}
