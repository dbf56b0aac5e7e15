"""Every word the measure lab shows, in both languages, in one place.

The lab (:mod:`rankcards.viz.lab`) serves every metric card, so its interface strings live here
rather than in each view: a translator reviews one file, and a new measure needs no new words
unless it reports a new named intermediate (add its label to ``DETAIL``; an unknown key is shown
as written, which a test flags). Numbers are written with the decimal point in both languages.

>>> sorted(VIEW) == ["en", "es"] and set(VIEW["en"]) == set(VIEW["es"])
True
"""

from __future__ import annotations

from typing import Final

Bilingual = dict[str, str]

#: labels and help of the generated controls: {key: {es, en}} (the demo contract's shape)
CONTROL_TEXT: Final[dict[str, Bilingual]] = {
    "k": {"es": "Corte k", "en": "Cutoff k"},
    "k_help": {
        "es": "Cuántos documentos de cada ranking cuenta la medida, desde arriba.",
        "en": "How many documents of each ranking the measure counts, from the top.",
    },
    "queries_binary": {
        "es": "Rankings de las consultas (marca los relevantes)",
        "en": "The queries' rankings (mark the relevant documents)",
    },
    "queries_graded": {
        "es": "Rankings de las consultas (grado de relevancia 0-3)",
        "en": "The queries' rankings (relevance grade 0-3)",
    },
    "queries_help_binary": {
        "es": "Pulsa un documento para marcarlo relevante o no relevante. Todo documento listado "
        "está juzgado: sin marca es un juicio de no relevancia (0).",
        "en": "Press a document to mark it relevant or not relevant. Every listed document is "
        "judged: an unmarked one is judged not relevant (0).",
    },
    "queries_help_graded": {
        "es": "Pulsa un documento para cambiar su grado: 0 → 1 → 2 → 3 → 0. Todo documento "
        "listado está juzgado: sin grado es no relevante (0).",
        "en": "Press a document to change its grade: 0 → 1 → 2 → 3 → 0. Every listed document "
        "is judged: one with no grade is not relevant (0).",
    },
    "queries_unjudged": {
        "es": "Rankings de las consultas (juzga cada documento)",
        "en": "The queries' rankings (judge each document)",
    },
    "queries_help_unjudged_binary": {
        "es": "Pulsa un documento para cambiar su juicio: 0 (no relevante) → 1 (relevante) → "
        "? (sin juzgar: no está en los qrels) → 0.",
        "en": "Press a document to change its judgment: 0 (not relevant) → 1 (relevant) → "
        "? (unjudged: absent from the qrels) → 0.",
    },
    "queries_help_unjudged_graded": {
        "es": "Pulsa un documento para cambiar su juicio: 0 → 1 → 2 → 3 → ? (sin juzgar: no "
        "está en los qrels) → 0.",
        "en": "Press a document to change its judgment: 0 → 1 → 2 → 3 → ? (unjudged: absent "
        "from the qrels) → 0.",
    },
    "param_p": {"es": "Persistencia p de RBP", "en": "RBP's persistence p"},
    "param_p_help": {
        "es": "La probabilidad de que el usuario siga leyendo tras cada documento: con p alta, "
        "las posiciones bajas pesan más.",
        "en": "The chance that the user reads on after each document: with a high p, the "
        "lower ranks weigh more.",
    },
    "param_beta": {"es": "Peso β de la exhaustividad", "en": "Recall's weight β"},
    "param_beta_help": {
        "es": "Fβ pesa la exhaustividad β veces lo que la precisión: β = 1 es F1; β > 1 "
        "premia la exhaustividad y β < 1 la precisión.",
        "en": "Fβ weighs recall β times as much as precision: β = 1 is F1; β > 1 favours "
        "recall and β < 1 favours precision.",
    },
    "param_rel": {
        "es": "Nivel de relevancia (grado mínimo)",
        "en": "Relevance level (lowest grade)",
    },
    "param_rel_help": {
        "es": "El grado mínimo que cuenta como relevante, como la opción -l de trec_eval.",
        "en": "The lowest grade that counts as relevant, like trec_eval's -l option.",
    },
    "param_recall": {"es": "Nivel de exhaustividad r", "en": "Recall level r"},
    "param_recall_help": {
        "es": "La exhaustividad a la que se lee la precisión interpolada (el punto marcado en "
        "la curva).",
        "en": "The recall at which the interpolated precision is read (the point marked on the "
        "curve).",
    },
    "show_ties": {
        "es": "Comparar dos formas de deshacer empates",
        "en": "Compare two ways of breaking ties",
    },
    "show_ties_help": {
        "es": "Da la misma puntuación a dos documentos contiguos y compara cómo se deshace el "
        "empate: trec_eval los ordena por docno descendente, no por su lugar en la ejecución.",
        "en": "Give two adjacent documents the same score and compare how the tie is broken: "
        "trec_eval orders them by docno descending, not by their place in the run.",
    },
    "show_gain": {
        "es": "Comparar la ganancia lineal y la exponencial",
        "en": "Compare linear and exponential gain",
    },
    "show_gain_help": {
        "es": "trec_eval usa el grado como ganancia (g); gdeval usa 2^g - 1, que premia más "
        "los documentos muy relevantes.",
        "en": "trec_eval uses the grade as the gain (g); gdeval uses 2^g - 1, which rewards "
        "highly relevant documents more.",
    },
    "show_cutoff": {
        "es": "Comparar el corte en k con la lista completa",
        "en": "Compare the cutoff at k with the whole list",
    },
    "show_cutoff_help": {
        "es": "Compara la medida cortada en k con la misma medida sobre todo el ranking.",
        "en": "Compare the measure cut at k with the same measure over the whole ranking.",
    },
    "show_micro": {
        "es": "Comparar la media macro y la micro",
        "en": "Compare the macro and micro averages",
    },
    "show_micro_help": {
        "es": "La macro promedia el valor de cada consulta (trec_eval); la micro suma los "
        "recuentos de todas las consultas y divide una sola vez, así que pesan más las "
        "consultas con más relevantes.",
        "en": "The macro average is the mean of the per-query values (trec_eval); the micro "
        "average adds up the counts of every query and divides once, so queries with more "
        "relevant documents weigh more.",
    },
    "show_unjudged": {
        "es": "Comparar sin juzgar con juzgado no relevante",
        "en": "Compare unjudged with judged not relevant",
    },
    "show_unjudged_help": {
        "es": "La medida con los documentos sin juzgar tal como están, y con todos ellos "
        "juzgados no relevantes (0): la mayoría de las medidas da lo mismo; bpref y Judged, no.",
        "en": "The measure with the unjudged documents as they are, and with all of them "
        "judged not relevant (0): most measures give the same; bpref and Judged do not.",
    },
    "show_averaging": {
        "es": "Consultas sin resultados en la media",
        "en": "Queries with no results in the mean",
    },
    "show_averaging_help": {
        "es": "Una consulta juzgada para la que la ejecución no devuelve nada: trec_eval 9.x "
        "la omite de la media (la 10.0 se detiene con un error) y -c la cuenta como 0.",
        "en": "A judged query for which the run returns nothing: trec_eval 9.x leaves it out "
        "of the mean (10.0 stops with an error) and -c counts it as 0.",
    },
}

#: the view's own words, per language
VIEW: Final[dict[str, dict[str, str]]] = {
    "en": {
        "per_query": "{measure} per query",
        "query": "Query",
        "value": "Value",
        "terms_button": "Show the terms of {query}",
        "terms_short": "terms",
        "not_in_run": "not in the run",
        "absent_button": "{query}: the run returns nothing",
        "absent_short": "no results",
        "terms_caption": "{measure} for {query}, rank by rank",
        "rank": "Rank",
        "document": "Document",
        "grade": "Grade",
        "term": "Term",
        "contribution": "Adds",
        "unjudged": "unjudged",
        "no_steps": "The run returns no document for {query}: its value is 0.",
        "ideal_caption": "The ideal ranking of {query} (all judged documents by grade)",
        "query_formula": "{measure}({query}) = ",
        "mean_formula": "mean {measure} = ",
        "no_mean": "No query is both in the run and in the judgments: there is nothing to average.",
        "scores": "Scores of {query} (press = to tie two adjacent documents)",
        "tie_button": "Tie {upper} and {lower} (ranks {rank} and {next})",
        "tie_note": "Tied documents are ordered by docno descending (trec_eval): {order}.",
        "conventions": "Conventions side by side (mean over queries)",
        "ties_trec": "trec_eval ties (docno descending)",
        "ties_run": "run order",
        "gain_linear": "linear gain g (trec_eval)",
        "gain_exp": "exponential gain 2^g - 1 (gdeval)",
        "cutoff_k": "cut at k = {k}",
        "cutoff_all": "whole list",
        "avg_run": "queries in both the run and the qrels (trec_eval 9.x)",
        "avg_all": "every qrels query (-c, ir_measures)",
        "over": "over {n} queries",
        "macro": "macro: mean of the per-query values",
        "micro": "micro: pooled counts, {numerator} / {denominator}",
        "as_judged": "unjudged documents left out of the qrels (trec_eval)",
        "as_zero": "every unjudged document judged not relevant (0)",
        "curve_title": "Interpolated precision-recall curve",
        "curve_x": "recall",
        "curve_y": "interpolated precision",
        "curve_mean": "mean over the queries",
        "curve_query": "{query}",
        "curve_level": "your recall level r = {recall}",
        "curve_caption": "The curve at the 11 standard recall levels (0, 0.1, …, 1), mean over "
        "the queries and for {query}; the point is the mean at your level.",
    },
    "es": {
        "per_query": "{measure} por consulta",
        "query": "Consulta",
        "value": "Valor",
        "terms_button": "Ver los términos de {query}",
        "terms_short": "términos",
        "not_in_run": "fuera de la ejecución",
        "absent_button": "{query}: la ejecución no devuelve nada",
        "absent_short": "sin resultados",
        "terms_caption": "{measure} de {query}, posición a posición",
        "rank": "Posición",
        "document": "Documento",
        "grade": "Grado",
        "term": "Término",
        "contribution": "Aporta",
        "unjudged": "sin juzgar",
        "no_steps": "La ejecución no devuelve ningún documento para {query}: su valor es 0.",
        "ideal_caption": "El ranking ideal de {query} (los documentos juzgados, por grado)",
        "query_formula": "{measure}({query}) = ",
        "mean_formula": "media de {measure} = ",
        "no_mean": "Ninguna consulta está a la vez en la ejecución y en los juicios: no hay nada "
        "que promediar.",
        "scores": "Puntuaciones de {query} (pulsa = para empatar dos documentos contiguos)",
        "tie_button": "Empatar {upper} y {lower} (posiciones {rank} y {next})",
        "tie_note": "Los documentos empatados se ordenan por docno descendente (trec_eval): "
        "{order}.",
        "conventions": "Convenciones lado a lado (media sobre las consultas)",
        "ties_trec": "empates de trec_eval (docno descendente)",
        "ties_run": "orden de la ejecución",
        "gain_linear": "ganancia lineal g (trec_eval)",
        "gain_exp": "ganancia exponencial 2^g - 1 (gdeval)",
        "cutoff_k": "corte en k = {k}",
        "cutoff_all": "lista completa",
        "avg_run": "consultas de la ejecución y de los qrels (trec_eval 9.x)",
        "avg_all": "todas las consultas de los qrels (-c, ir_measures)",
        "over": "sobre {n} consultas",
        "macro": "macro: media de los valores por consulta",
        "micro": "micro: recuentos sumados, {numerator} / {denominator}",
        "as_judged": "sin juzgar, fuera de los qrels (trec_eval)",
        "as_zero": "todos los sin juzgar juzgados no relevantes (0)",
        "curve_title": "Curva de precisión interpolada y exhaustividad",
        "curve_x": "exhaustividad",
        "curve_y": "precisión interpolada",
        "curve_mean": "media de las consultas",
        "curve_query": "{query}",
        "curve_level": "tu nivel de exhaustividad r = {recall}",
        "curve_caption": "La curva en los 11 niveles estándar de exhaustividad (0, 0.1, …, 1), "
        "media de las consultas y de {query}; el punto es la media en tu nivel.",
    },
}

#: column headers for the named intermediates measures report in ``Step.detail``
DETAIL: Final[dict[str, dict[str, str]]] = {
    "en": {
        "precision": "Precision at this rank",
        "seen": "Relevant so far",
        "gain": "Gain",
        "discount": "Discount",
        "dcg": "DCG so far",
        "nonrel_above": "Non-relevant above",
        "stop": "Stop probability",
        "weight": "Weight",
        "recall": "Recall at this rank",
        "relevant": "Relevant",
        "rank": "Rank of the first relevant",
        "count": "Counts",
        "reach": "Probability of reaching it",
    },
    "es": {
        "precision": "Precisión en esta posición",
        "seen": "Relevantes hasta aquí",
        "gain": "Ganancia",
        "discount": "Descuento",
        "dcg": "DCG acumulada",
        "nonrel_above": "No relevantes por encima",
        "stop": "Probabilidad de parar",
        "weight": "Peso",
        "recall": "Exhaustividad en esta posición",
        "relevant": "Relevante",
        "rank": "Posición del primer relevante",
        "count": "Cuenta",
        "reach": "Probabilidad de llegar",
    },
}

#: the symbol a quantity is written with (the others are shown by their words alone)
SYMBOL: Final[dict[str, str]] = {
    "R": "R",
    "N": "N",
    "k": "k",
    "p": "p",
    "P@k": "P@k",
    "R@k": "R@k",
    "DCG": "DCG",
    "IDCG": "IDCG",
    "min(N,R)": "min(N, R)",
    "beta": "β",
    "recall": "r",
}

#: names of the scalars in ``Explanation.quantities``: beside their symbol, or alone
QUANTITY: Final[dict[str, dict[str, str]]] = {
    "en": {
        "R": "relevant judged documents",
        "relevant_retrieved": "relevant retrieved",
        "k": "cutoff",
        "IDCG": "ideal DCG",
        "DCG": "the run's discounted cumulative gain",
        "N": "non-relevant judged documents",
        "min(N,R)": "the smaller of N and R",
        "p": "persistence",
        "scale": "highest grade, which scales the gains",
        "first_relevant_rank": "rank of the first relevant document",
        "P@k": "precision at k",
        "R@k": "recall at k",
        "beta": "the weight of recall against precision",
        "recall": "recall level",
        "relevant_needed": "relevant documents needed to reach that recall",
        "best_rank": "highest rank with that recall or more, best precision",
        "max_grade": "grade scale maximum (gdeval)",
        "reach_end": "probability of reading past the last rank",
        "judged": "judged documents in the top k",
        "depth": "documents read",
    },
    "es": {
        "R": "documentos relevantes juzgados",
        "relevant_retrieved": "relevantes recuperados",
        "k": "corte",
        "IDCG": "DCG ideal",
        "DCG": "ganancia acumulada descontada de la ejecución",
        "N": "documentos no relevantes juzgados",
        "min(N,R)": "el menor de N y R",
        "p": "persistencia",
        "scale": "grado máximo, que escala las ganancias",
        "first_relevant_rank": "posición del primer documento relevante",
        "P@k": "precisión en k",
        "R@k": "exhaustividad en k",
        "beta": "el peso de la exhaustividad frente a la precisión",
        "recall": "nivel de exhaustividad",
        "relevant_needed": "relevantes necesarios para alcanzar esa exhaustividad",
        "best_rank": "posición con esa exhaustividad o más y la mejor precisión",
        "max_grade": "grado máximo de la escala (gdeval)",
        "reach_end": "probabilidad de seguir leyendo tras la última posición",
        "judged": "documentos juzgados en el top k",
        "depth": "documentos leídos",
    },
}
