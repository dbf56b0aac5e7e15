"""Demo material for the concept cards: data and tiny systems to evaluate, not metrics.

Kept apart from :mod:`rankcards.metrics` on purpose: the metrics module is the tested,
trec_eval-exact heart, while these modules only *produce* rankings and judgments for the
cards to measure. Everything here is pure standard library so it runs in Pyodide too.

* :mod:`rankcards.demos.toy` - the small shared toy ranking every metric card reuses;
* :mod:`rankcards.demos.gold` - a gold dataset written for this project (queries, documents,
  graded judgments 0-3) and its loader;
* :mod:`rankcards.demos.bm25` - a tiny BM25 retriever; :mod:`rankcards.demos.rankers` - a
  seeded random ranker as the floor to beat;
* :mod:`rankcards.demos.vectors` / :mod:`rankcards.demos.ivf` - seeded clustered vectors,
  exact nearest-neighbour search and an IVF-style approximate index;
* :mod:`rankcards.demos.judges` - human graded labels, eight systems and a simulated LLM judge
  with noise, leniency, parse failures and self-preference;
* :mod:`rankcards.demos.synthetic` - a test set generated from its own passages (word overlap,
  false negatives) and a concept-matching "semantic" ranker;
* :mod:`rankcards.demos.mmr` - maximal marginal relevance, a diversifying reranker, and the
  2-D toy points of the mmr card.
"""
