// The page modules a page needs, loaded on first use (dynamic import): a card page downloads
// only what its first screen runs before its Python runtime (issue 24: at most 600 KB in all).
//
//   evaluate.js  the evaluate page's form, on that page only;
//   bound.js     example-bound demos, on the cards that have one;
//   exercise.js  a card's Practice block once it comes within a screen of the viewport (its
//                task, hints and solution are in the page without it), or at once where the
//                reader already solved it (the mark by the card's title) and in the glossary
//                (its marks of solved cards).
//
// Each module mounts what it finds when it loads and on every page Material's instant
// navigation announces (`document$` replays the current page to a late subscriber), so this
// only decides when to load it.
import { NEAR_MARGIN } from "./runtime.js";
import { eachPage } from "./pages.js";

const SOLVED_PREFIX = "rankcards:exercise:"; // exercise.js's key of a solved card

const load = {
  evaluate: () => import("./evaluate.js"),
  bound: () => import("./bound.js"),
  exercise: () => import("./exercise.js"),
};

function solvedHere(block) {
  try {
    return localStorage.getItem(SOLVED_PREFIX + block.dataset.slug) !== null;
  } catch {
    return false; // storage blocked: nothing was kept
  }
}

const nearExercise =
  "IntersectionObserver" in globalThis
    ? new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          nearExercise.disconnect();
          load.exercise();
        },
        { rootMargin: NEAR_MARGIN },
      )
    : null;

function scan() {
  if (document.querySelector("[data-rc-evaluate]")) load.evaluate();
  if (document.querySelector("section[data-rc-demo][data-rc-bound]")) load.bound();
  const exercises = [...document.querySelectorAll("[data-rc-exercise]")];
  if (document.querySelector(".rc-glossary[data-rc-solved-label]") || exercises.some(solvedHere) || !nearExercise) {
    load.exercise();
  } else for (const block of exercises) nearExercise.observe(block);
}

eachPage(scan);
