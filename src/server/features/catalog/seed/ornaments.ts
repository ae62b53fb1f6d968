import { design, random, type Rgb } from './look.ts';

/**
 * SVG pieces for the default looks: backdrops, light, frames and decorations. All drawn at the
 * canvas size; the random ones take a seed so every run draws the same picture.
 */

const { width: W, height: H } = design;
const serif = "DejaVu Serif, 'Liberation Serif', serif";
const sans = "DejaVu Sans, 'Liberation Sans', sans-serif";

/** A seamless paper backdrop lit from one side (the studio look). */
export function studioBackdrop(centre: string, edge: string, lightX = 0.4, lightY = 0.35): string {
  return `<defs><radialGradient id="b" cx="${lightX}" cy="${lightY}" r="0.85">
    <stop offset="0%" stop-color="${centre}"/><stop offset="100%" stop-color="${edge}"/></radialGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#b)"/>`;
}

export function linearBackdrop(
  stops: string[],
  angle: 'vertical' | 'diagonal' = 'vertical',
): string {
  const [x2, y2] = angle === 'vertical' ? [0, 1] : [1, 1];
  const stopTags = stops
    .map(
      (c, i) => `<stop offset="${(i / Math.max(1, stops.length - 1)) * 100}%" stop-color="${c}"/>`,
    )
    .join('');
  return `<defs><linearGradient id="g" x1="0" y1="0" x2="${x2}" y2="${y2}">${stopTags}</linearGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#g)"/>`;
}

/** Out-of-focus lights: soft discs of colour. */
export function bokeh(seed: number, colours: string[], count = 28, maxRadius = 70): string {
  const next = random(seed);
  let discs = '';
  for (let i = 0; i < count; i++) {
    const r = 18 + next() * maxRadius;
    const colour = colours[Math.floor(next() * colours.length)]!;
    discs += `<circle cx="${(next() * W).toFixed(0)}" cy="${(next() * H).toFixed(0)}" r="${r.toFixed(0)}"
      fill="${colour}" fill-opacity="${(0.18 + next() * 0.35).toFixed(2)}"/>`;
  }
  return discs;
}

/** A window-light slash: warm diagonal beams. */
export function windowLight(colour = '#fff3d6', opacity = 0.35): string {
  return `<defs><linearGradient id="w" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0%" stop-color="${colour}" stop-opacity="${opacity}"/>
    <stop offset="60%" stop-color="${colour}" stop-opacity="0"/></linearGradient></defs>
    <polygon points="0,0 ${W * 0.55},0 ${W * 0.15},${H} 0,${H}" fill="url(#w)"/>
    <polygon points="${W * 0.62},0 ${W * 0.72},0 ${W * 0.3},${H} ${W * 0.2},${H}" fill="url(#w)"/>`;
}

/** A stage spotlight: a bright cone from above. */
export function spotlight(colour = '#ffffff', x = 0.5, opacity = 0.5): string {
  return `<defs><radialGradient id="s" cx="${x}" cy="0.3" r="0.6">
    <stop offset="0%" stop-color="${colour}" stop-opacity="${opacity}"/>
    <stop offset="100%" stop-color="${colour}" stop-opacity="0"/></radialGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#s)"/>`;
}

/** The synthwave floor: a neon grid in perspective under a striped sun. */
export function neonGrid(line: string, sun: [string, string]): string {
  const horizon = H * 0.64;
  let lines = '';
  for (let i = -12; i <= 12; i++) {
    lines += `<line x1="${W / 2 + i * 40}" y1="${horizon}" x2="${W / 2 + i * 260}" y2="${H}" />`;
  }
  for (let k = 1; k <= 9; k++) {
    const y = horizon + (H - horizon) * Math.pow(k / 9, 1.8);
    lines += `<line x1="0" y1="${y.toFixed(1)}" x2="${W}" y2="${y.toFixed(1)}" />`;
  }
  let stripes = '';
  for (let k = 0; k < 6; k++) {
    const y = H * 0.5 + k * 20;
    stripes += `<rect x="0" y="${y}" width="${W}" height="${4 + k * 2}" fill="#000"/>`;
  }
  return `<defs>
    <linearGradient id="sun" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="${sun[0]}"/><stop offset="100%" stop-color="${sun[1]}"/></linearGradient>
    <mask id="cut"><rect width="${W}" height="${H}" fill="#fff"/>${stripes}</mask>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="#120021"/><stop offset="100%" stop-color="#2a0845"/></linearGradient>
  </defs>
  <circle cx="${W / 2}" cy="${H * 0.52}" r="${W * 0.36}" fill="url(#sun)" mask="url(#cut)"/>
  <rect x="0" y="${horizon}" width="${W}" height="${H - horizon}" fill="url(#floor)"/>
  <g stroke="${line}" stroke-width="3" stroke-opacity="0.9">${lines}</g>
  <rect x="0" y="${horizon - 2}" width="${W}" height="4" fill="${line}"/>`;
}

/** The school-portrait laser backdrop: beams fanning from a corner over a deep blue. */
export function laserBeams(seed: number, colours: string[]): string {
  const next = random(seed);
  let beams = '';
  for (let i = 0; i < 16; i++) {
    const colour = colours[i % colours.length]!;
    const x = W * (0.1 + next() * 0.9);
    beams += `<line x1="${W * 0.05}" y1="${H * 0.95}" x2="${x.toFixed(0)}" y2="0" stroke="${colour}"
      stroke-width="${(3 + next() * 6).toFixed(1)}" stroke-opacity="0.85"/>`;
  }
  return `<defs><radialGradient id="bg" cx="0.5" cy="0.45" r="0.8"><stop offset="0%" stop-color="#1b2a8c"/><stop offset="100%" stop-color="#050526"/></radialGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#bg)"/><g>${beams}</g>`;
}

export function scanlines(opacity = 0.18): string {
  let rows = '';
  for (let y = 0; y < H; y += 6) rows += `<rect x="0" y="${y}" width="${W}" height="2"/>`;
  return `<g fill="#000" fill-opacity="${opacity}">${rows}</g>`;
}

/** The orange date stamp of a camcorder or a 35 mm compact. */
export function dateStamp(text: string, colour = '#ff9a1f'): string {
  return `<text x="${W - 48}" y="${H - 56}" text-anchor="end" font-family="${'DejaVu Sans Mono, monospace'}"
    font-size="46" font-weight="bold" fill="${colour}" fill-opacity="0.92">${text}</text>`;
}

export function vhsLabel(): string {
  return `<text x="48" y="84" font-family="DejaVu Sans Mono, monospace" font-size="42" fill="#fff" fill-opacity="0.9">PLAY ▶</text>
    <text x="48" y="${H - 56}" font-family="DejaVu Sans Mono, monospace" font-size="34" fill="#fff" fill-opacity="0.85">SP 0:14:32</text>`;
}

/** The white instant-film border, thicker at the bottom. */
export function instantFrame(caption: string): string {
  const side = 52;
  const bottom = 210;
  return `<path fill="#f7f4ec" fill-rule="evenodd" d="M0 0H${W}V${H}H0Z M${side} ${side}V${H - bottom}H${W - side}V${side}Z"/>
    <text x="${W / 2}" y="${H - bottom / 2 + 18}" text-anchor="middle" font-family="${serif}" font-style="italic"
      font-size="46" fill="#3a3a3a">${caption}</text>`;
}

/** Memphis-style confetti of the 80s: squiggles, triangles and dots in candy colours. */
export function memphis(seed: number, colours: string[]): string {
  const next = random(seed);
  let shapes = '';
  for (let i = 0; i < 26; i++) {
    const colour = colours[i % colours.length]!;
    const x = next() * W;
    const y = next() < 0.5 ? next() * H * 0.22 : H * 0.78 + next() * H * 0.22;
    const kind = i % 3;
    if (kind === 0)
      shapes += `<polygon points="${x},${y} ${x + 46},${y + 10} ${x + 14},${y + 48}" fill="${colour}"/>`;
    else if (kind === 1)
      shapes += `<circle cx="${x}" cy="${y}" r="${10 + next() * 14}" fill="${colour}"/>`;
    else
      shapes += `<path d="M${x} ${y} q 15 -20 30 0 t 30 0 t 30 0" stroke="${colour}" stroke-width="8" fill="none" stroke-linecap="round"/>`;
  }
  return shapes;
}

/** A pixel border in arcade colours with a score line. */
export function arcadeFrame(colour: string): string {
  let blocks = '';
  for (let x = 0; x < W; x += 40) {
    blocks += `<rect x="${x}" y="0" width="32" height="32"/><rect x="${x}" y="${H - 32}" width="32" height="32"/>`;
  }
  for (let y = 40; y < H - 40; y += 40) {
    blocks += `<rect x="0" y="${y}" width="32" height="32"/><rect x="${W - 32}" y="${y}" width="32" height="32"/>`;
  }
  return `<g fill="${colour}" fill-opacity="0.9">${blocks}</g>
    <text x="${W / 2}" y="100" text-anchor="middle" font-family="DejaVu Sans Mono, monospace" font-weight="bold"
      font-size="48" fill="#fff" stroke="${colour}" stroke-width="2">HI-SCORE 198400</text>`;
}

/** A carved, gilded picture frame for the painted looks. */
export function gildedFrame(): string {
  return `<defs><linearGradient id="gold" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0%" stop-color="#f7e08a"/><stop offset="35%" stop-color="#b8862b"/>
      <stop offset="65%" stop-color="#f1d27a"/><stop offset="100%" stop-color="#7a5414"/></linearGradient></defs>
    <path fill="url(#gold)" fill-rule="evenodd" d="M0 0H${W}V${H}H0Z M64 64V${H - 64}H${W - 64}V64Z"/>
    <rect x="64" y="64" width="${W - 128}" height="${H - 128}" fill="none" stroke="#4a300a" stroke-width="6"/>
    <rect x="20" y="20" width="${W - 40}" height="${H - 40}" fill="none" stroke="#fff1b8" stroke-opacity="0.6" stroke-width="4"/>
    <rect x="44" y="44" width="${W - 88}" height="${H - 88}" fill="none" stroke="#5b3c0c" stroke-width="3"/>`;
}

/** Art deco: stepped gold lines and a fan at the top. */
export function decoFrame(colour = '#d9b45a'): string {
  let fan = '';
  for (let i = 0; i <= 10; i++) {
    const angle = Math.PI * (i / 10);
    fan += `<line x1="${W / 2}" y1="150" x2="${(W / 2 - Math.cos(angle) * 170).toFixed(1)}" y2="${(150 - Math.sin(angle) * 110).toFixed(1)}"/>`;
  }
  return `<g stroke="${colour}" fill="none" stroke-width="4">
      <rect x="40" y="40" width="${W - 80}" height="${H - 80}"/>
      <rect x="58" y="58" width="${W - 116}" height="${H - 116}" stroke-width="2"/>
      <path d="M40 220 H120 V120 H220 V40"/><path d="M${W - 40} 220 H${W - 120} V120 H${W - 220} V40"/>
      <path d="M40 ${H - 220} H120 V${H - 120} H220 V${H - 40}"/><path d="M${W - 40} ${H - 220} H${W - 120} V${H - 120} H${W - 220} V${H - 40}"/>
      ${fan}</g>`;
}

/** An oval cameo mount (heirloom photographs). */
export function ovalMount(colour: string): string {
  return `<path fill="${colour}" fill-rule="evenodd"
    d="M0 0H${W}V${H}H0Z M${W / 2} ${H * 0.08} a ${W * 0.4} ${H * 0.42} 0 1 0 0.1 0Z"/>
    <ellipse cx="${W / 2}" cy="${H * 0.5}" rx="${W * 0.4}" ry="${H * 0.42}" fill="none" stroke="#8a6a3a" stroke-width="5"/>`;
}

/** Four-pointed twinkles and dots of light. */
export function sparkles(seed: number, colour: string, count = 36): string {
  const next = random(seed);
  let stars = '';
  for (let i = 0; i < count; i++) {
    const x = next() * W;
    const y = next() * H;
    const r = 6 + next() * 22;
    const o = (0.5 + next() * 0.5).toFixed(2);
    stars += `<path d="M${x} ${y - r} Q${x} ${y} ${x + r} ${y} Q${x} ${y} ${x} ${y + r} Q${x} ${y} ${x - r} ${y} Q${x} ${y} ${x} ${y - r}Z" fill="${colour}" fill-opacity="${o}"/>`;
    stars += `<circle cx="${(next() * W).toFixed(0)}" cy="${(next() * H).toFixed(0)}" r="${(1.5 + next() * 3).toFixed(1)}" fill="${colour}" fill-opacity="${o}"/>`;
  }
  return stars;
}

export function snowflakes(seed: number): string {
  const next = random(seed);
  let flakes = '';
  for (let i = 0; i < 40; i++) {
    const x = next() * W;
    const y = next() * H;
    const r = 8 + next() * 18;
    let arms = '';
    for (let k = 0; k < 3; k++) {
      const a = (Math.PI / 3) * k;
      arms += `<line x1="${(x - Math.cos(a) * r).toFixed(1)}" y1="${(y - Math.sin(a) * r).toFixed(1)}" x2="${(x + Math.cos(a) * r).toFixed(1)}" y2="${(y + Math.sin(a) * r).toFixed(1)}"/>`;
    }
    flakes += `<g stroke="#ffffff" stroke-opacity="${(0.4 + next() * 0.5).toFixed(2)}" stroke-width="2.5">${arms}</g>`;
  }
  return flakes;
}

/** Rising sparks: small glowing dots, denser at the bottom. */
export function embers(seed: number, colours: string[], count = 70): string {
  const next = random(seed);
  let dots = '';
  for (let i = 0; i < count; i++) {
    const y = H * (1 - Math.pow(next(), 1.8));
    dots += `<circle cx="${(next() * W).toFixed(0)}" cy="${y.toFixed(0)}" r="${(2 + next() * 6).toFixed(1)}"
      fill="${colours[i % colours.length]}" fill-opacity="${(0.5 + next() * 0.5).toFixed(2)}"/>`;
  }
  return dots;
}

export function starfield(seed: number, count = 160): string {
  const next = random(seed);
  let stars = '';
  for (let i = 0; i < count; i++) {
    stars += `<circle cx="${(next() * W).toFixed(0)}" cy="${(next() * H).toFixed(0)}" r="${(0.8 + next() * 2.4).toFixed(1)}"
      fill="#fff" fill-opacity="${(0.4 + next() * 0.6).toFixed(2)}"/>`;
  }
  return stars;
}

export function nebula(colours: [string, string, string]): string {
  return `<defs>
    <radialGradient id="n1" cx="0.25" cy="0.3" r="0.6"><stop offset="0%" stop-color="${colours[0]}" stop-opacity="0.9"/><stop offset="100%" stop-color="${colours[0]}" stop-opacity="0"/></radialGradient>
    <radialGradient id="n2" cx="0.8" cy="0.7" r="0.6"><stop offset="0%" stop-color="${colours[1]}" stop-opacity="0.85"/><stop offset="100%" stop-color="${colours[1]}" stop-opacity="0"/></radialGradient></defs>
    <rect width="${W}" height="${H}" fill="${colours[2]}"/>
    <rect width="${W}" height="${H}" fill="url(#n1)"/><rect width="${W}" height="${H}" fill="url(#n2)"/>`;
}

/** A glowing circle of runes behind the head. */
export function runeCircle(colour: string): string {
  const cx = W / 2;
  const cy = H * 0.36;
  let marks = '';
  for (let i = 0; i < 24; i++) {
    const a = (Math.PI * 2 * i) / 24;
    const x = cx + Math.cos(a) * 385;
    const y = cy + Math.sin(a) * 385;
    marks += `<path transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${((a * 180) / Math.PI + 90).toFixed(1)})"
      d="M-10 -14 L0 14 L10 -14 M-12 0 H12" fill="none"/>`;
  }
  return `<g stroke="${colour}" stroke-width="4" fill="none" stroke-opacity="0.9">
    <circle cx="${cx}" cy="${cy}" r="420"/><circle cx="${cx}" cy="${cy}" r="350"/>
    <polygon points="${[0, 1, 2, 3, 4]
      .map((k) => {
        const a = -Math.PI / 2 + (k * 4 * Math.PI) / 5;
        return `${(cx + Math.cos(a) * 350).toFixed(1)},${(cy + Math.sin(a) * 350).toFixed(1)}`;
      })
      .join(' ')}"/>${marks}</g>`;
}

/** Leaves framing the edges (the forest looks). */
export function leaves(seed: number, colours: string[]): string {
  const next = random(seed);
  let shapes = '';
  for (let i = 0; i < 34; i++) {
    const side = i % 4;
    const x = side === 0 ? next() * 140 : side === 1 ? W - next() * 140 : next() * W;
    const y = side === 2 ? next() * 120 : side === 3 ? H - next() * 140 : next() * H;
    const s = 0.8 + next() * 1.4;
    shapes += `<path transform="translate(${x.toFixed(0)} ${y.toFixed(0)}) rotate(${(next() * 360).toFixed(0)}) scale(${s.toFixed(2)})"
      d="M0 0 C 20 -30, 60 -30, 80 0 C 60 30, 20 30, 0 0Z" fill="${colours[i % colours.length]}" fill-opacity="0.9"/>`;
  }
  return shapes;
}

/** The masthead and cover lines of a fashion magazine. */
export function magazineCover(title: string, colour: string, lines: string[]): string {
  const coverLines = lines
    .map(
      (line, i) =>
        `<text x="56" y="${H * 0.62 + i * 62}" font-family="${sans}" font-weight="bold" font-size="40" fill="#fff"
          stroke="#000" stroke-opacity="0.25" stroke-width="1">${line}</text>`,
    )
    .join('');
  return `<text x="${W / 2}" y="190" text-anchor="middle" font-family="${serif}" font-weight="bold"
      font-size="196" letter-spacing="6" fill="${colour}">${title}</text>
    <text x="${W / 2}" y="236" text-anchor="middle" font-family="${sans}" font-size="26" letter-spacing="8" fill="#fff">THE STYLE ISSUE · SPRING</text>
    ${coverLines}`;
}

export function lensFlare(x = 0.82, y = 0.14, colour = '#ffd27a'): string {
  const fx = W * x;
  const fy = H * y;
  const ghosts = [0.35, 0.55, 0.8]
    .map((t, i) => {
      const gx = fx + (W / 2 - fx) * t * 2;
      const gy = fy + (H / 2 - fy) * t * 2;
      return `<circle cx="${gx.toFixed(0)}" cy="${gy.toFixed(0)}" r="${30 + i * 22}" fill="${colour}" fill-opacity="0.16"/>`;
    })
    .join('');
  return `<defs><radialGradient id="f" cx="${x}" cy="${y}" r="0.55"><stop offset="0%" stop-color="#fff8e0" stop-opacity="0.95"/>
    <stop offset="25%" stop-color="${colour}" stop-opacity="0.45"/><stop offset="100%" stop-color="${colour}" stop-opacity="0"/></radialGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#f)"/>${ghosts}`;
}

/** Flat blocks of colour behind the subject (the colour-block editorial). */
export function colourBlocks(colours: [string, string, string]): string {
  return `<rect width="${W}" height="${H}" fill="${colours[0]}"/>
    <rect x="${W * 0.58}" y="0" width="${W * 0.42}" height="${H * 0.62}" fill="${colours[1]}"/>
    <rect x="0" y="${H * 0.7}" width="${W * 0.46}" height="${H * 0.3}" fill="${colours[2]}"/>`;
}

/** Warm light leaking in from the film's edge. */
export function lightLeak(colour = '#ff7b39'): string {
  return `<defs><radialGradient id="l" cx="1" cy="0.2" r="0.7"><stop offset="0%" stop-color="${colour}" stop-opacity="0.75"/>
    <stop offset="100%" stop-color="${colour}" stop-opacity="0"/></radialGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#l)"/>`;
}

/** Palm silhouettes at the edges (the Miami look). */
export function palms(colour = '#14021f'): string {
  const frond = (x: number, y: number, flip: number) => {
    let leavesPath = '';
    for (let i = 0; i < 7; i++) {
      const a = -0.2 - i * 0.42;
      const ex = x + flip * Math.cos(a) * 230;
      const ey = y + Math.sin(a) * -120 + i * 18;
      leavesPath += `<path d="M${x} ${y} Q ${(x + ex) / 2} ${Math.min(y, ey) - 60} ${ex.toFixed(0)} ${ey.toFixed(0)}" stroke="${colour}" stroke-width="${16 - i}" fill="none" stroke-linecap="round"/>`;
    }
    return leavesPath;
  };
  return `<path d="M40 ${H} Q 90 ${H * 0.6} 70 ${H * 0.3}" stroke="${colour}" stroke-width="26" fill="none"/>
    ${frond(70, H * 0.3, 1)}${frond(70, H * 0.3, -1)}
    <path d="M${W - 30} ${H} Q ${W - 110} ${H * 0.7} ${W - 90} ${H * 0.42}" stroke="${colour}" stroke-width="24" fill="none"/>
    ${frond(W - 90, H * 0.42, -1)}${frond(W - 90, H * 0.42, 1)}`;
}

/** Sunglasses drawn over the eyes (the "covered face" example). */
export function sunglasses(cx: number, cy: number, span: number): string {
  const lens = span * 0.36;
  return `<g><ellipse cx="${cx - span * 0.25}" cy="${cy}" rx="${lens / 2}" ry="${lens * 0.36}" fill="#111"/>
    <ellipse cx="${cx + span * 0.25}" cy="${cy}" rx="${lens / 2}" ry="${lens * 0.36}" fill="#111"/>
    <rect x="${cx - span * 0.08}" y="${cy - 6}" width="${span * 0.16}" height="10" fill="#111"/>
    <line x1="${cx - span * 0.25 - lens / 2}" y1="${cy - 6}" x2="${cx - span * 0.55}" y2="${cy - 18}" stroke="#111" stroke-width="10"/>
    <line x1="${cx + span * 0.25 + lens / 2}" y1="${cy - 6}" x2="${cx + span * 0.55}" y2="${cy - 18}" stroke="#111" stroke-width="10"/>
    <ellipse cx="${cx - span * 0.3}" cy="${cy - lens * 0.12}" rx="${lens * 0.12}" ry="${lens * 0.06}" fill="#fff" fill-opacity="0.35"/></g>`;
}

export function rgb(hexColour: string): Rgb {
  const n = Number.parseInt(hexColour.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
