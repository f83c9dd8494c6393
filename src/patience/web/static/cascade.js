// The win: the cards leave the foundations one after another and bounce down the table,
// leaving their trail, as in the classic game. Drawn on a canvas over the table (the game is
// over: nothing under it changes); a click or a key ends it (motion.onSkip), and so does time.
import { isRed, rankLabel, suitPath } from "./cards.js";
import { onSkip } from "./motion.js";

const LAUNCH_EVERY = 110; // ms between two cards leaving
const GRAVITY = 0.0022; // px per ms²
const BOUNCE = 0.72; // the speed a card keeps at each bounce
const LONGEST = 9000; // ms: whatever is still bouncing then stops

// One card face on its own small canvas (drawn once, stamped at every frame).
function cardImage(text, w, h, ink) {
  const c = document.createElement("canvas");
  const ratio = window.devicePixelRatio || 1;
  c.width = Math.ceil(w * ratio);
  c.height = Math.ceil(h * ratio);
  const g = c.getContext("2d");
  g.scale(ratio, ratio);
  const r = w * 0.08;
  g.beginPath();
  g.roundRect(0.5, 0.5, w - 1, h - 1, r);
  g.fillStyle = ink.face;
  g.fill();
  g.strokeStyle = ink.edge;
  g.lineWidth = 1;
  g.stroke();
  g.fillStyle = isRed(text) ? ink.red : ink.black;
  g.font = `bold ${Math.round(w * 0.26)}px system-ui, sans-serif`;
  g.textBaseline = "top";
  g.fillText(rankLabel(text[0]), w * 0.08, w * 0.07);
  const drawSuit = (x, y, size) => {
    g.save();
    g.translate(x, y);
    g.scale(size / 100, size / 100);
    g.fill(suitPath(text[1]));
    g.restore();
  };
  drawSuit(w * 0.09, w * 0.36, w * 0.2);
  drawSuit(w * 0.3, h * 0.4, w * 0.4);
  return c;
}

// Play the cascade from the foundation cards (each {text, el, x, y}, in the order they leave)
// over the table; done() is called once, when it ends or is skipped.
export function playCascade(table, cards, size, done) {
  const box = table.getBoundingClientRect();
  const view = { w: window.innerWidth, h: window.innerHeight };
  const canvas = document.createElement("canvas");
  canvas.className = "cascade";
  canvas.setAttribute("aria-hidden", "true");
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.ceil(view.w * ratio);
  canvas.height = Math.ceil(view.h * ratio);
  document.body.append(canvas);
  const g = canvas.getContext("2d");
  g.scale(ratio, ratio);
  const style = getComputedStyle(table);
  const ink = {
    face: style.getPropertyValue("--card-face").trim() || "#fff",
    edge: style.getPropertyValue("--card-edge").trim() || "#888",
    red: style.getPropertyValue("--ink-red").trim() || "#c8102e",
    black: style.getPropertyValue("--ink-black").trim() || "#111",
  };
  const floor = view.h - size.ch;
  const flying = cards.map((c, i) => ({
    ...c,
    img: cardImage(c.text, size.cw, size.ch, ink),
    x: box.left + c.x,
    y: box.top + c.y,
    vx: (Math.random() < 0.5 ? -1 : 1) * (0.12 + Math.random() * 0.25),
    vy: -Math.random() * 0.5,
    start: i * LAUNCH_EVERY,
    out: false,
  }));
  let t0 = null;
  let last = null;
  let frame = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    cancelAnimationFrame(frame);
    removeSkip();
    canvas.remove();
    for (const c of flying) if (c.el) c.el.classList.remove("launched");
    done();
  };
  const removeSkip = onSkip(end);
  const step = (now) => {
    if (t0 === null) t0 = last = now;
    const t = now - t0;
    const dt = Math.min(now - last, 40);
    last = now;
    let live = 0;
    for (const c of flying) {
      if (c.out || t < c.start) {
        if (!c.out) live++;
        continue;
      }
      if (c.el && !c.el.classList.contains("launched")) c.el.classList.add("launched");
      c.vy += GRAVITY * dt;
      c.x += c.vx * dt;
      c.y += c.vy * dt;
      if (c.y > floor) {
        c.y = floor;
        c.vy = -c.vy * BOUNCE;
      }
      if (c.x < -size.cw || c.x > view.w) {
        c.out = true;
        continue;
      }
      live++;
      g.drawImage(c.img, c.x, c.y, size.cw, size.ch);
    }
    if (!live || t > LONGEST) end();
    else frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
  return end;
}
