// The new-table form: show only the chosen game's settings; the server validates whatever is sent.
(function () {
  const form = document.getElementById("new-table");
  if (!form) return;
  function sync() {
    const game = form.querySelector("input[name=game]:checked")?.value;
    form.querySelectorAll("[data-for]").forEach((el) => { el.hidden = !el.dataset.for.split(" ").includes(game); });
  }
  form.addEventListener("change", sync); sync();
})();
