// Sounds, made on the spot with the Web Audio API (no sound files): a deal, a card put
// down, a refusal and a win. Off until the player turns them on in the settings.

let enabled = false;
let context = null;

// Turn the sounds on or off (the "sound" setting).
export function enableSound(on) {
  enabled = Boolean(on);
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  // A context made before the player touched the page starts suspended.
  if (context.state === "suspended" && context.resume) context.resume().catch(() => {});
  return context;
}

// One note: a waveform at a frequency (Hz), starting `at` seconds from now, fading out.
function tone(ctx, { type = "sine", freq, at = 0, length = 0.12, volume = 0.2, slide = null }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, start + length);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(gain);
  gain.connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

// A short burst of filtered noise: a card sliding off the pack.
function swish(ctx, at, length) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  const gain = ctx.createGain();
  gain.gain.value = 0.35;
  source.connect(filter);
  filter.connect(gain);
  gain.connect(ctx.destination);
  source.start(ctx.currentTime + at);
}

const SOUNDS = {
  deal: (ctx) => {
    swish(ctx, 0, 0.09);
    swish(ctx, 0.07, 0.07);
  },
  move: (ctx) => tone(ctx, { type: "triangle", freq: 520, slide: 300, length: 0.08, volume: 0.25 }),
  refusal: (ctx) => {
    tone(ctx, { type: "square", freq: 180, length: 0.1, volume: 0.07 });
    tone(ctx, { type: "square", freq: 140, at: 0.11, length: 0.14, volume: 0.07 });
  },
  win: (ctx) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) =>
      tone(ctx, { type: "triangle", freq, at: i * 0.12, length: i === 3 ? 0.5 : 0.18, volume: 0.18 }),
    );
  },
};

// Play one of "deal", "move", "refusal", "win", if sounds are on.
export function playSound(name) {
  if (!enabled || !SOUNDS[name]) return;
  // Nothing before the player has touched the page (a won game reloaded, a first deal):
  // the browser would refuse to start the audio, and say so in the console.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  const ctx = audio();
  if (!ctx) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    /* a sound is never worth an error in the game */
  }
}
