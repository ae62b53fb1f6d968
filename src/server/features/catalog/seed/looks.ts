import {
  chromaShift,
  duotone,
  glow,
  grade,
  grain,
  layer,
  monochrome,
  onBackdrop,
  overlay,
  paint,
  type Pixels,
  sepia,
  soften,
  crisp,
  depthOfField,
  drawing,
  design,
  vignette,
} from './look.ts';
import {
  arcadeFrame,
  bokeh,
  colourBlocks,
  dateStamp,
  decoFrame,
  embers,
  gildedFrame,
  instantFrame,
  laserBeams,
  leaves,
  lensFlare,
  lightLeak,
  linearBackdrop,
  magazineCover,
  memphis,
  nebula,
  neonGrid,
  ovalMount,
  palms,
  rgb,
  runeCircle,
  scanlines,
  snowflakes,
  sparkles,
  spotlight,
  starfield,
  studioBackdrop,
  sunglasses,
  vhsLabel,
  windowLight,
} from './ornaments.ts';

/**
 * The look of each default preset's pictures, made with sharp from a real photo: colour
 * grading, duotones, new backdrops behind a soft oval, light, frames and decorations. They are
 * honest stand-ins that show what a style is about; an operator replaces them with real
 * generated examples from the admin API.
 */
export type Look = (photo: Pixels) => Promise<Pixels>;

const doc = drawing;

export const looks = {
  // ── Professional ──────────────────────────────────────────────────────────────────────────
  async corporateHeadshot(photo) {
    const graded = await grade(photo, { saturation: 0.9, contrast: 1.08, brightness: 1.05 });
    const placed = await onBackdrop(graded, { svg: doc(studioBackdrop('#c9ced6', '#5d6670')) });
    return overlay(placed, vignette(0.35));
  },
  async executivePortrait(photo) {
    const graded = await grade(photo, {
      saturation: 0.8,
      contrast: 1.2,
      brightness: 0.95,
      balance: [0.97, 1, 1.05],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(studioBackdrop('#2d3f5e', '#080d18', 0.3, 0.3)),
      solid: 0.55,
    });
    return overlay(placed, vignette(0.6));
  },
  async startupFounder(photo) {
    const graded = await grade(photo, {
      saturation: 1.1,
      brightness: 1.1,
      contrast: 1.02,
      balance: [1.05, 1.01, 0.94],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(
        linearBackdrop(['#f4efe6', '#d9cbb3']) +
          bokeh(11, ['#ffffff', '#ffe3b0', '#cfe6ff'], 30, 90),
      ),
    });
    return overlay(placed, layer(windowLight(), 'screen'));
  },
  async linkedinFresh(photo) {
    const graded = await grade(photo, { saturation: 0.95, brightness: 1.12, contrast: 1.04 });
    return onBackdrop(graded, {
      svg: doc(studioBackdrop('#ffffff', '#cfe0f2', 0.5, 0.3)),
      solid: 0.66,
    });
  },
  async blackAndWhiteEditorial(photo) {
    const mono = await monochrome(photo, 1.3);
    const placed = await onBackdrop(mono, { svg: doc(studioBackdrop('#6b6b6b', '#111111')) });
    return grain(await overlay(placed, vignette(0.5)), 14);
  },
  async conferenceSpeaker(photo) {
    const graded = await grade(photo, {
      saturation: 1.05,
      contrast: 1.15,
      balance: [0.95, 1, 1.1],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(linearBackdrop(['#0b1f4d', '#020611']) + bokeh(23, ['#3f7bff', '#9fd0ff'], 22, 60)),
    });
    return overlay(placed, layer(spotlight('#dfe9ff', 0.5, 0.45), 'screen'), vignette(0.45));
  },
  async warmNaturalLight(photo) {
    const graded = await grade(photo, {
      saturation: 1.05,
      brightness: 1.06,
      lift: 10,
      balance: [1.1, 1.02, 0.86],
    });
    return overlay(graded, layer(windowLight('#ffd89a', 0.45), 'screen'), vignette(0.3));
  },

  // ── 80s ───────────────────────────────────────────────────────────────────────────────────
  async neonGrid(photo) {
    const tone = await duotone(photo, rgb('#2b0a3d'), rgb('#ff7ad9'));
    const placed = await onBackdrop(tone, {
      svg: doc(
        linearBackdrop(['#090018', '#3b0b5e', '#ff3f8e']) +
          neonGrid('#23e8ff', ['#ffe66b', '#ff3f8e']),
      ),
      ellipse: { cx: 0.5, cy: 0.42, rx: 0.44, ry: 0.5 },
      solid: 0.58,
    });
    return overlay(placed, layer(scanlines(0.12)));
  },
  async laserYearbook(photo) {
    const graded = await grade(photo, { saturation: 1.25, brightness: 1.08, contrast: 1.05 });
    const soft = await glow(graded, 10, 0.35);
    const placed = await onBackdrop(soft, {
      svg: doc(laserBeams(42, ['#ff4fd8', '#40e0ff', '#fff36b', '#ff6a3d'])),
      solid: 0.6,
    });
    return overlay(placed, vignette(0.4, '#05051f'));
  },
  async vhsMemories(photo) {
    const graded = await grade(photo, {
      saturation: 1.3,
      contrast: 0.9,
      lift: 24,
      balance: [1.06, 0.98, 1.08],
    });
    const fringed = await chromaShift(await soften(graded, 1.6, 0.6), 7);
    const withNoise = await grain(fringed, 26);
    return overlay(
      withNoise,
      layer(scanlines(0.2)),
      layer(vhsLabel()),
      layer(dateStamp('JUN 14 1986')),
    );
  },
  async miamiNights(photo) {
    const tone = await duotone(photo, rgb('#1a0638'), rgb('#5ff3e0'));
    const graded = await grade(tone, { contrast: 1.1 });
    const placed = await onBackdrop(graded, {
      svg: doc(linearBackdrop(['#ff6fb5', '#ffb36b', '#7b2ff7'], 'diagonal')),
      solid: 0.6,
    });
    return overlay(placed, layer(palms()));
  },
  async arcadeGlow(photo) {
    const tone = await duotone(photo, rgb('#050014'), rgb('#7cf7ff'));
    const placed = await onBackdrop(tone, {
      svg: doc(
        studioBackdrop('#3a0a6b', '#050014') + bokeh(7, ['#ff2bd6', '#2bffea', '#fff200'], 26, 40),
      ),
      solid: 0.58,
    });
    return overlay(placed, layer(arcadeFrame('#ff2bd6')), layer(scanlines(0.14)));
  },
  async polaroid84(photo) {
    const graded = await grade(photo, {
      saturation: 0.85,
      contrast: 0.88,
      lift: 30,
      balance: [1.08, 1.02, 0.88],
    });
    const leaked = await overlay(graded, layer(lightLeak(), 'screen'));
    return overlay(await grain(leaked, 16), layer(instantFrame('summer ’84')));
  },
  async aerobicsPop(photo) {
    const graded = await grade(photo, { saturation: 1.35, brightness: 1.08, contrast: 1.1 });
    const placed = await onBackdrop(graded, {
      svg: doc(linearBackdrop(['#ffe45c', '#ff7ac6'])),
      solid: 0.62,
    });
    return overlay(placed, layer(memphis(19, ['#00c2ff', '#ff3b6b', '#2a2a2a', '#7c4dff'])));
  },

  // ── Classy ────────────────────────────────────────────────────────────────────────────────
  async oldHollywood(photo) {
    const mono = await monochrome(photo, 1.2);
    const placed = await onBackdrop(await glow(mono, 14, 0.5), {
      svg: doc(studioBackdrop('#8a8a8a', '#0c0c0c', 0.35, 0.3)),
      solid: 0.55,
    });
    return grain(await overlay(placed, vignette(0.7)), 10);
  },
  async blackTieGala(photo) {
    const graded = await grade(photo, {
      saturation: 0.95,
      contrast: 1.12,
      balance: [1.06, 1, 0.9],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(
        studioBackdrop('#3a2a18', '#0a0704') + bokeh(5, ['#ffd27a', '#ffb347', '#fff1c1'], 34, 55),
      ),
      solid: 0.58,
    });
    return overlay(placed, vignette(0.5));
  },
  async renaissanceOil(photo) {
    const painted = await paint(photo);
    const graded = await grade(painted, {
      saturation: 0.8,
      contrast: 1.12,
      brightness: 0.92,
      balance: [1.1, 0.98, 0.78],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(studioBackdrop('#5a4222', '#140c04', 0.3, 0.35)),
      solid: 0.56,
    });
    return overlay(placed, vignette(0.55), layer(gildedFrame()));
  },
  async parisianCafe(photo) {
    const graded = await grade(photo, {
      saturation: 0.75,
      contrast: 0.95,
      lift: 16,
      balance: [1.08, 1.0, 0.88],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(linearBackdrop(['#d8c3a0', '#7c5a3a']) + bokeh(31, ['#fff3d0', '#ffcf7a'], 24, 60)),
    });
    return overlay(placed, vignette(0.4, '#2a1a0a'));
  },
  async operaNight(photo) {
    const graded = await grade(photo, {
      saturation: 0.9,
      contrast: 1.15,
      balance: [1.05, 0.97, 0.95],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(
        `${studioBackdrop('#7a0c1c', '#1a0205', 0.5, 0.25)}
        <g fill="#000" fill-opacity="0.18">${Array.from({ length: 12 }, (_, i) => `<rect x="${i * 80 + 20}" y="0" width="26" height="${design.height}"/>`).join('')}</g>`,
      ),
      solid: 0.58,
    });
    return overlay(placed, layer(spotlight('#fff1d6', 0.5, 0.35), 'screen'), vignette(0.55));
  },
  async artDeco(photo) {
    const tone = await duotone(photo, rgb('#061a1f'), rgb('#f3e2b3'));
    const placed = await onBackdrop(tone, {
      svg: doc(studioBackdrop('#0f3a40', '#03090b')),
      solid: 0.58,
    });
    return overlay(placed, layer(decoFrame()));
  },
  async sepiaHeirloom(photo) {
    const toned = await sepia(await monochrome(photo, 1.05));
    const faded = await grade(toned, { contrast: 0.9, lift: 20 });
    return overlay(await grain(faded, 12), vignette(0.45, '#3b2410'), layer(ovalMount('#efe3c8')));
  },

  // ── Fantasy ───────────────────────────────────────────────────────────────────────────────
  async elvenRoyalty(photo) {
    const graded = await grade(photo, {
      saturation: 0.9,
      brightness: 1.08,
      balance: [1.02, 1.06, 0.92],
    });
    const placed = await onBackdrop(await glow(graded, 16, 0.4), {
      svg: doc(
        studioBackdrop('#cfe8b0', '#1f3b1a', 0.5, 0.3) + bokeh(3, ['#fff6c8', '#d9ffb0'], 26, 50),
      ),
      solid: 0.56,
    });
    return overlay(placed, layer(sparkles(8, '#fff4b8', 30), 'screen'));
  },
  async arcaneSorcerer(photo) {
    const tone = await duotone(photo, rgb('#12002a'), rgb('#d8b8ff'));
    const placed = await onBackdrop(tone, {
      svg: doc(studioBackdrop('#3d0f7a', '#07001a') + runeCircle('#b47cff')),
      solid: 0.55,
    });
    return overlay(placed, layer(sparkles(13, '#e4ccff', 40), 'screen'), vignette(0.5));
  },
  async frostQueen(photo) {
    const tone = await duotone(photo, rgb('#0b2140'), rgb('#eaf7ff'));
    const placed = await onBackdrop(await glow(tone, 12, 0.45), {
      svg: doc(studioBackdrop('#bfe6ff', '#1b3d6e', 0.5, 0.3)),
      solid: 0.58,
    });
    return overlay(placed, layer(snowflakes(27)), layer(sparkles(29, '#ffffff', 20), 'screen'));
  },
  async fireMage(photo) {
    const graded = await grade(photo, {
      saturation: 1.2,
      contrast: 1.2,
      brightness: 0.95,
      balance: [1.2, 0.95, 0.7],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(linearBackdrop(['#1a0400', '#5c1200', '#ff6a00'])),
      solid: 0.56,
    });
    return overlay(
      placed,
      layer(embers(17, ['#ffb347', '#ff6a00', '#ffe08a']), 'screen'),
      vignette(0.5),
    );
  },
  async forestDruid(photo) {
    const graded = await grade(photo, {
      saturation: 0.85,
      contrast: 1.1,
      brightness: 0.95,
      balance: [0.92, 1.08, 0.9],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(studioBackdrop('#3f6b2a', '#0a1606', 0.5, 0.35)),
      solid: 0.56,
    });
    return overlay(
      placed,
      layer(embers(41, ['#eaff8a', '#fff7b0'], 50), 'screen'),
      layer(leaves(5, ['#1d3d12', '#2f5a1a', '#0f2409'])),
    );
  },
  async celestialVoyager(photo) {
    const tone = await duotone(photo, rgb('#07051f'), rgb('#ffd9f2'));
    const placed = await onBackdrop(tone, {
      svg: doc(nebula(['#6a2cff', '#ff3fa4', '#05031a']) + starfield(61)),
      solid: 0.56,
    });
    return overlay(placed, layer(sparkles(64, '#ffffff', 24), 'screen'));
  },
  async dragonKnight(photo) {
    const graded = await grade(photo, {
      saturation: 0.6,
      contrast: 1.3,
      brightness: 0.9,
      balance: [1.04, 0.98, 0.92],
    });
    const placed = await onBackdrop(graded, {
      svg: doc(linearBackdrop(['#2b2f36', '#0b0c0f', '#4a1a08'])),
      solid: 0.55,
    });
    return overlay(placed, layer(embers(71, ['#ff7a1a', '#ffc04d'], 45), 'screen'), vignette(0.65));
  },

  // ── Fashion ───────────────────────────────────────────────────────────────────────────────
  async coverStar(photo) {
    const graded = await grade(photo, { saturation: 1.1, contrast: 1.12, brightness: 1.05 });
    const placed = await onBackdrop(graded, {
      svg: doc(studioBackdrop('#f2d0c4', '#b76e5b', 0.5, 0.3)),
      ellipse: { cx: 0.5, cy: 0.6, rx: 0.52, ry: 0.56 },
      solid: 0.64,
    });
    return overlay(
      placed,
      layer(magazineCover('MUSE', '#ffffff', ['THE NEW', 'CLASSICS', '48 LOOKS', 'TO LOVE'])),
    );
  },
  async streetStyle(photo) {
    const graded = await grade(photo, {
      saturation: 1.1,
      contrast: 1.25,
      balance: [1.08, 1.0, 0.9],
    });
    // Teal shadows, orange highlights: the grade of city editorials.
    const teal = await duotone(graded, rgb('#0b2a33'), rgb('#ffd2a8'));
    return overlay(
      await grain(teal, 12),
      layer(`<rect width="100%" height="100%" fill="#ff8a3d" fill-opacity="0.08"/>`, 'soft-light'),
      vignette(0.4),
    );
  },
  async goldenHourEditorial(photo) {
    const graded = await grade(photo, {
      saturation: 1.15,
      brightness: 1.06,
      lift: 8,
      balance: [1.15, 1.02, 0.82],
    });
    return overlay(graded, layer(lensFlare(), 'screen'), layer(lightLeak('#ffb347'), 'screen'));
  },
  async monochromeMinimal(photo) {
    const grey = await grade(photo, { saturation: 0.15, brightness: 1.12, contrast: 1.05 });
    return onBackdrop(grey, {
      svg: doc(studioBackdrop('#fafafa', '#dedede', 0.5, 0.3)),
      solid: 0.64,
    });
  },
  async pastelDream(photo) {
    const tone = await duotone(photo, rgb('#6a4c93'), rgb('#fff0f6'));
    const soft = await glow(tone, 18, 0.4);
    const placed = await onBackdrop(soft, {
      svg: doc(linearBackdrop(['#ffd6e8', '#d7c6ff', '#c6f1ff'], 'diagonal')),
      solid: 0.6,
    });
    return overlay(placed, layer(sparkles(91, '#ffffff', 16), 'screen'));
  },
  async runwayFlash(photo) {
    const graded = await grade(photo, { saturation: 0.9, contrast: 1.35, brightness: 1.1 });
    const placed = await onBackdrop(graded, {
      svg: doc(studioBackdrop('#2a2a2a', '#000000', 0.5, 0.3)),
      solid: 0.55,
    });
    return overlay(placed, layer(spotlight('#ffffff', 0.5, 0.35), 'screen'), vignette(0.7));
  },
  async colourBlock(photo) {
    const graded = await grade(photo, { saturation: 1.2, contrast: 1.12, brightness: 1.05 });
    return onBackdrop(graded, {
      svg: doc(colourBlocks(['#1f4bff', '#ffcc00', '#ff4d6d'])),
      solid: 0.62,
    });
  },

  // ── Photo guidelines: bad examples ────────────────────────────────────────────────────────
  async withSunglasses(photo) {
    return overlay(photo, layer(sunglasses(490, 470, 600)));
  },
  async tooDark(photo) {
    const dark = await grade(photo, { brightness: 0.28, contrast: 0.8, balance: [0.95, 1, 1.1] });
    return grain(dark, 22);
  },

  // ── Quiz: the "AI-generated" half ─────────────────────────────────────────────────────────
  // Not made by an AI: real selfies retouched by us into the look of generated portraits (skin
  // smoothed, light too even, the room behind melted into creamy bokeh).
  async quizStudioSmooth(photo) {
    const smooth = await soften(await soften(photo, 4, 0.7), 2, 0.5);
    const graded = await grade(smooth, { saturation: 1.1, brightness: 1.08, contrast: 1.05 });
    return depthOfField(graded, {
      sigma: 18,
      background: [
        layer(
          `<rect width="100%" height="100%" fill="#8fa9c4" fill-opacity="0.35"/>`,
          'soft-light',
        ),
        layer(bokeh(101, ['#ffffff', '#d6e6ff'], 16, 60), 'screen'),
      ],
    });
  },
  async quizGoldenGlow(photo) {
    const smooth = await soften(photo, 4, 0.65);
    const graded = await grade(smooth, {
      saturation: 1.2,
      brightness: 1.08,
      balance: [1.12, 1.02, 0.84],
    });
    const blurred = await depthOfField(await glow(graded, 14, 0.3), {
      sigma: 16,
      background: [layer(bokeh(103, ['#fff4d6', '#ffd08a'], 22, 70), 'screen')],
    });
    return overlay(blurred, layer(lensFlare(0.85, 0.1), 'screen'));
  },
  async quizBokehHeadshot(photo) {
    const smooth = await soften(photo, 3.5, 0.7);
    const graded = await grade(smooth, { saturation: 1.05, brightness: 1.1, contrast: 1.08 });
    return depthOfField(graded, {
      sigma: 22,
      background: [layer(bokeh(107, ['#ffffff', '#fff1d0', '#cfe3d8'], 26, 80), 'screen')],
    });
  },
  async quizPorcelain(photo) {
    const smooth = await soften(await soften(photo, 5, 0.75), 2, 0.5);
    const graded = await grade(smooth, {
      saturation: 0.9,
      brightness: 1.16,
      contrast: 0.95,
      balance: [1.04, 1, 1.02],
    });
    return depthOfField(await glow(graded, 10, 0.3), {
      sigma: 20,
      background: [
        layer(`<rect width="100%" height="100%" fill="#f6d5dc" fill-opacity="0.5"/>`, 'soft-light'),
      ],
    });
  },
  async quizCinematic(photo) {
    const smooth = await soften(photo, 3, 0.6);
    const graded = await grade(smooth, { saturation: 1.15, contrast: 1.2, brightness: 1.02 });
    const teal = await overlay(
      graded,
      layer(`<rect width="100%" height="100%" fill="#1d5c63" fill-opacity="0.35"/>`, 'soft-light'),
    );
    const blurred = await depthOfField(teal, {
      sigma: 18,
      background: [layer(bokeh(109, ['#ffb070', '#7fd1d8'], 20, 60), 'screen')],
    });
    return overlay(blurred, vignette(0.4));
  },
  async quizHdr(photo) {
    const local = await crisp(await soften(photo, 3, 0.55));
    const graded = await grade(local, { saturation: 1.35, contrast: 1.1 });
    return depthOfField(graded, { sigma: 14 });
  },
  async quizPastelSkin(photo) {
    const smooth = await soften(await soften(photo, 4.5, 0.7), 2, 0.5);
    const graded = await grade(smooth, {
      saturation: 1.05,
      brightness: 1.12,
      balance: [1.05, 1, 1.04],
    });
    return depthOfField(await glow(graded, 12, 0.3), {
      sigma: 20,
      background: [
        layer(
          `<rect width="100%" height="100%" fill="#e6d6ff" fill-opacity="0.45"/>`,
          'soft-light',
        ),
      ],
    });
  },
} satisfies Record<string, Look>;

export type LookName = keyof typeof looks;
