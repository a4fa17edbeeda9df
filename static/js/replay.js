// Arrow keys step the replay (the buttons do the work; this only clicks them).
document.addEventListener("keydown", (event) => {
  const id = {ArrowLeft: "replay-prev", ArrowRight: "replay-next"}[event.key];
  const link = id && document.getElementById(id);
  if (link && link.hasAttribute("href")) { event.preventDefault(); link.click(); }
});
