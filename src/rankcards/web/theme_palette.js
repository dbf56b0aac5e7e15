// Inlined by rankcards.web.defer_theme after Material's palette form, on a page whose Material
// bundle runs late (theme.js): the palette Material's palette component would apply at once (the
// stored choice, else the first whose media query matches; "follow the system" resolved to the
// light or dark scheme) and its toggle shown, before the page is first painted.
(function () {
  var inputs = document.querySelectorAll("[data-md-component=palette] input[name=__palette]");
  if (inputs.length === 0) return;
  var stored = null;
  try {
    stored = __md_get("__palette");
  } catch (error) {
    // storage blocked: the media queries decide, as in Material
  }
  var index = stored && typeof stored.index === "number" ? stored.index : -1;
  if (index < 0) {
    for (var i = 0; i < inputs.length; i++) {
      if (matchMedia(inputs[i].getAttribute("data-md-color-media")).matches) {
        index = i;
        break;
      }
    }
  }
  index = Math.max(0, Math.min(index, inputs.length - 1));
  var from = inputs[index];
  var media = from.getAttribute("data-md-color-media");
  if (media === "(prefers-color-scheme)") {
    var light = matchMedia("(prefers-color-scheme: light)").matches;
    from = document.querySelector("[data-md-color-media='(prefers-color-scheme: " + (light ? "light" : "dark") + ")']") || from;
  }
  document.body.setAttribute("data-md-color-media", media);
  for (var name of ["scheme", "primary", "accent"]) {
    document.body.setAttribute("data-md-color-" + name, from.getAttribute("data-md-color-" + name));
  }
  for (var j = 0; j < inputs.length; j++) {
    var label = inputs[j].nextElementSibling;
    if (label instanceof HTMLElement) label.hidden = j !== index;
  }
})();
