import {
  neutralScene,
  sceneWith,
  type Place,
  type Rgb,
  type Scene,
  type Treatment,
} from './scene.ts';
import {
  colourModifiers,
  colourNames,
  defaultDuotone,
  dressedCues,
  fillerWords,
  framingWords,
  garments,
  lightNouns,
  lightStyles,
  moods,
  negationWords,
  personFeatures,
  placeAtTime,
  placeLooks,
  placeWords,
  timeLooks,
  timeWords,
  treatmentWords,
  vocabularyPhrases,
  weatherLooks,
  weatherWords,
  type Atmosphere,
  type LightChange,
  type Shift,
} from './vocabulary.ts';

/**
 * Reads a custom prompt into a scene for the offline studio engine, with the words of
 * vocabulary.ts (how, and what it cannot do: docs/prompt-vocabulary.md). It never fails: a prompt
 * with nothing it knows gives the neutral scene.
 */
export function readPrompt(prompt: string): { scene: Scene; understood: string[] } {
  const text = fold(prompt);
  const found = clausesOf(text).flatMap(findPhrases);
  const { choice, used } = choose(found);
  if (used.length === 0) return { scene: sceneWith({}), understood: [] };
  const understood = used
    .filter((span) => !used.some((other) => within(span, other)))
    .sort((one, other) => one.from - other.from)
    .map((span) => text.slice(span.from, span.to));
  return { scene: paint(choice), understood: [...new Set(understood)] };
}

type TimeOfDay = Scene['time'];
type Weather = Scene['weather'];
type Framing = Scene['framing'];

/** The parts of a scene a phrase names outright or hints at; one value each wins (`settle`). */
interface Categories {
  place: Place;
  time: TimeOfDay;
  weather: Weather;
  framing: Framing;
  treatment: Treatment;
}
type Category = keyof Categories;
interface Naming<Kind extends Category> {
  kind: Kind;
  value: Categories[Kind];
  named: boolean;
}

/** One meaning of a vocabulary phrase; a phrase in several tables has several. */
type Reading =
  | { [Kind in Category]: Naming<Kind> }[Category]
  | { kind: 'colour'; colour: Rgb }
  | { kind: 'light'; change: LightChange }
  | { kind: 'mood'; shift: Shift };

/** A prompt word: its canonical form and where it is in the folded prompt. */
interface Token {
  word: string;
  from: number;
  to: number;
}

/** A vocabulary phrase found in a clause, from its token `first` to its token `last`. */
interface Found {
  readings: Reading[];
  clause: Token[];
  first: number;
  last: number;
}

interface Span {
  from: number;
  to: number;
}

/** A garment or light word that is also part of a phrase shows once ("neon" in "neon lights"). */
function within(inner: Span, outer: Span): boolean {
  const longer = outer.to - outer.from > inner.to - inner.from;
  return longer && outer.from <= inner.from && inner.to <= outer.to;
}

/** Accents, case and apostrophes do not change a word ("Café", "king's"). */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’ʼ`]/g, '');
}

/** A phrase never runs across punctuation: "at night, sky" is not "night sky". */
const wordOrBreak = /([a-z0-9]+)|[,.;:!?()[\]{}|\n\r]/g;
const fillers = new Set(fillerWords);

function clausesOf(text: string): Token[][] {
  const clauses: Token[][] = [[]];
  for (const match of text.matchAll(wordOrBreak)) {
    const word = match[1];
    if (word === undefined) clauses.push([]);
    else if (!fillers.has(word)) {
      clauses
        .at(-1)!
        .push({ word: canonical(word), from: match.index, to: match.index + word.length });
    }
  }
  return clauses.filter((clause) => clause.length > 0);
}

/**
 * Every form of a vocabulary word maps to the word ("stars", "starry" → "star"), also when the form
 * is itself in the vocabulary: "snowy landscape" and "snow" then meet, as "sunny" and "sun" do.
 */
const baseWords = new Map<string, string>();
for (const phrase of vocabularyPhrases()) {
  for (const [word] of fold(phrase).matchAll(/[a-z0-9]+/g)) {
    for (const form of fillers.has(word) ? [] : inflections(word)) {
      if (!baseWords.has(form)) baseWords.set(form, word);
    }
  }
}

function canonical(word: string): string {
  return baseWords.get(word) ?? word;
}

/** Plurals and "-y" adjectives: star, stars, starry; city, cities; fog, foggy; ice, icy. */
function inflections(word: string): string[] {
  if (word.length < 3 || /\d/.test(word)) return [];
  const forms = [`${word}s`, `${word}es`, `${word}y`];
  if (/[^aeiou]y$/.test(word)) forms.push(`${word.slice(0, -1)}ies`);
  if (word.endsWith('e')) forms.push(`${word.slice(0, -1)}y`);
  if (/[^aeiou][aeiou][^aeiouwxy]$/.test(word)) forms.push(`${word}${word.at(-1)}y`);
  return forms;
}

function keyOf(phrase: string): string {
  return clausesOf(fold(phrase))
    .flat()
    .map((token) => token.word)
    .join(' ');
}

const phrases = new Map<string, Reading[]>();

function learn(phrase: string, reading: Reading): void {
  const key = keyOf(phrase);
  phrases.set(key, [...(phrases.get(key) ?? []), reading]);
}

function learnAll<Value>(
  table: Partial<Record<string, readonly string[]>>,
  reading: (value: Value) => Reading,
): void {
  for (const [value, words] of Object.entries(table)) {
    for (const word of words ?? []) learn(word, reading(value as Value));
  }
}

function learnCategory<Kind extends Category>(
  kind: Kind,
  table: {
    named: Partial<Record<Categories[Kind], readonly string[]>>;
    hinted: Partial<Record<Categories[Kind], readonly string[]>>;
  },
): void {
  learnAll<Categories[Kind]>(table.named, (value) => ({ kind, value, named: true }) as Reading);
  learnAll<Categories[Kind]>(table.hinted, (value) => ({ kind, value, named: false }) as Reading);
}

learnCategory('place', placeWords);
learnCategory('framing', framingWords);
learnCategory('treatment', treatmentWords);
learnAll<TimeOfDay>(timeWords, (value) => ({ kind: 'time', value, named: true }));
learnAll<Weather>(weatherWords, (value) => ({ kind: 'weather', value, named: true }));
for (const style of Object.values(lightStyles)) {
  for (const word of style.words) learn(word, { kind: 'light', change: style.change });
}
for (const mood of Object.values(moods)) {
  for (const word of mood.words) learn(word, { kind: 'mood', shift: mood.shift });
}
for (const [name, colour] of Object.entries(colourNames)) learn(name, { kind: 'colour', colour });
for (const [modifierName, modifier] of Object.entries(colourModifiers)) {
  for (const [name, colour] of Object.entries(colourNames)) {
    const phrase = `${modifierName} ${name}`;
    if (phrases.has(keyOf(phrase))) continue;
    const shaded = scale(colour, modifier.shade ?? 1);
    const tinted = mix(shaded, [255, 255, 255], modifier.tint ?? 0);
    learn(phrase, { kind: 'colour', colour: vivid(tinted, modifier.vivid ?? 0) });
  }
}

const longestPhrase = Math.max(...[...phrases.keys()].map((key) => key.split(' ').length));
const negations = new Set(negationWords);

/** Longest phrase first, left to right: "golden hour" is a time, not the colour gold. */
function findPhrases(clause: Token[]): Found[] {
  const found: Found[] = [];
  let first = 0;
  while (first < clause.length) {
    const match = longestPhraseAt(clause, first);
    if (match === undefined) {
      first += 1;
      continue;
    }
    const last = first + match.length - 1;
    if (!negations.has(clause[first - 1]?.word ?? '')) {
      found.push({ readings: match.readings, clause, first, last });
    }
    first = last + 1;
  }
  return found;
}

function longestPhraseAt(clause: Token[], first: number) {
  for (let length = Math.min(longestPhrase, clause.length - first); length > 0; length -= 1) {
    const key = clause
      .slice(first, first + length)
      .map((token) => token.word)
      .join(' ');
    const readings = phrases.get(key);
    if (readings !== undefined) return { readings, length };
  }
  return undefined;
}

/** What the prompt asks for, each part settled; `paint` turns it into a scene. */
interface Choice {
  place: Place;
  time: TimeOfDay | undefined;
  weather: Weather | undefined;
  framing: Framing | undefined;
  treatment: Treatment | undefined;
  clothing: Rgb | null;
  palette: Rgb[];
  litColours: Rgb[];
  lights: LightChange[];
  shifts: Shift[];
}

interface Candidate<Value> {
  value: Value;
  named: boolean;
  found: Found;
}

/**
 * A named value beats a hinted one. The place is the first one named (the setting comes first,
 * what follows is its surroundings: "a lake in the mountains" is a lake); everything else is the
 * last one named (later words refine earlier ones: "sunset turning into night" is night).
 */
function settle<Value>(
  candidates: Candidate<Value>[],
  precedence: 'first' | 'last',
  used: Set<Found>,
): Value | undefined {
  const named = candidates.filter((candidate) => candidate.named);
  const tier = named.length > 0 ? named : candidates;
  const chosen = precedence === 'first' ? tier[0] : tier.at(-1);
  if (chosen === undefined) return undefined;
  for (const candidate of candidates) {
    if (candidate.value === chosen.value) used.add(candidate.found);
  }
  return chosen.value;
}

function candidatesOf<Kind extends Category>(
  found: Found[],
  kind: Kind,
): Candidate<Categories[Kind]>[] {
  const names = (reading: Reading): reading is Reading & Naming<Kind> => reading.kind === kind;
  return found.flatMap((one) =>
    one.readings.filter(names).map(({ value, named }) => ({ value, named, found: one })),
  );
}

/** How many words after a colour a garment, light or feature may come ("red summer dress"). */
const colourReach = 3;
const garmentSizes = new Map(Object.entries(garments));
const wholeOutfit = Math.max(...garmentSizes.values());
const lights = new Set(lightNouns);
const features = new Set(personFeatures);
const dressed = new Set(dressedCues);

type ColourUse =
  | { role: 'clothing'; size: number; cue: Token }
  | { role: 'light'; cue: Token }
  | { role: 'person' }
  | { role: 'palette' };

/** The nearest garment, light or feature after a colour says what it colours, else the backdrop. */
function colourUse(found: Found): ColourUse {
  const after = found.clause.slice(found.last + 1, found.last + 1 + colourReach);
  for (const token of after) {
    const size = garmentSizes.get(token.word);
    if (size !== undefined) return { role: 'clothing', size, cue: token };
    if (lights.has(token.word)) return { role: 'light', cue: token };
    if (features.has(token.word)) return { role: 'person' };
  }
  const before = found.clause.slice(Math.max(0, found.first - 2), found.first);
  const cue = before.find((token) => dressed.has(token.word));
  return cue === undefined ? { role: 'palette' } : { role: 'clothing', size: wholeOutfit, cue };
}

function choose(found: Found[]): { choice: Choice; used: Span[] } {
  const usedFound = new Set<Found>();
  const cues: Token[] = [];
  const place = settle(candidatesOf(found, 'place'), 'first', usedFound);
  const time = settle(candidatesOf(found, 'time'), 'last', usedFound);
  const weather = settle(candidatesOf(found, 'weather'), 'last', usedFound);
  const framing = settle(candidatesOf(found, 'framing'), 'last', usedFound);
  const treatment = settle(candidatesOf(found, 'treatment'), 'last', usedFound);

  const lightChanges: LightChange[] = [];
  const shifts = new Set<Shift>();
  const palette: { colour: Rgb; found: Found }[] = [];
  const litColours: Rgb[] = [];
  let clothing: { colour: Rgb; size: number; found: Found; cue: Token } | undefined;
  for (const one of found) {
    for (const reading of one.readings) {
      switch (reading.kind) {
        case 'light':
          lightChanges.push(reading.change);
          usedFound.add(one);
          break;
        case 'mood':
          shifts.add(reading.shift);
          usedFound.add(one);
          break;
        case 'colour': {
          const use = colourUse(one);
          if (use.role === 'palette') palette.push({ colour: reading.colour, found: one });
          if (use.role === 'light') {
            litColours.push(reading.colour);
            usedFound.add(one);
            cues.push(use.cue);
          }
          if (use.role === 'clothing' && use.size >= (clothing?.size ?? 0)) {
            clothing = { colour: reading.colour, size: use.size, found: one, cue: use.cue };
          }
        }
      }
    }
  }
  const paletteUsed = palette.slice(-2);
  for (const { found: one } of paletteUsed) usedFound.add(one);
  if (clothing !== undefined) {
    usedFound.add(clothing.found);
    cues.push(clothing.cue);
  }

  const spans: Span[] = [
    ...[...usedFound].map((one) => ({
      from: one.clause[one.first]!.from,
      to: one.clause[one.last]!.to,
    })),
    ...cues,
  ];
  return {
    choice: {
      place: place ?? 'studio',
      time,
      weather,
      framing,
      treatment,
      clothing: clothing?.colour ?? null,
      palette: paletteUsed.map((entry) => entry.colour),
      litColours,
      lights: lightChanges,
      shifts: [...shifts],
    },
    used: spans,
  };
}

/**
 * The place's look, then the time and weather asked for (when the place is not already painted
 * that way), the colours named for the backdrop, the light words in order, the coloured lights,
 * and the moods added up.
 */
function paint(choice: Choice): Scene {
  const place =
    (choice.time === undefined ? undefined : placeAtTime[choice.place]?.[choice.time]) ??
    choice.place;
  const look = placeLooks[place];
  const time = choice.time ?? look.time;
  const weather = choice.weather ?? look.weather;

  const [base, accent] = choice.palette;
  let palette = base === undefined ? look.palette : { base, accent: accent ?? look.palette.accent };
  let light = look.light;
  let rim = look.rim;
  const shifts: Shift[] = [];
  const atmospheres: Atmosphere[] = [
    ...(time === look.time ? [] : [timeLooks[time]]),
    ...(weather === look.weather ? [] : [weatherLooks[weather]]),
  ];
  for (const atmosphere of atmospheres) {
    const tone = atmosphere.palette;
    if (tone !== undefined) {
      const toned = (colour: Rgb) => scale(mix(colour, tone.towards, tone.amount), tone.shade);
      palette = { base: toned(palette.base), accent: toned(palette.accent) };
    }
    light = {
      ...light,
      colour: atmosphere.lightColour ?? light.colour,
      strength: unit(light.strength * (atmosphere.lightStrength ?? 1)),
    };
    rim = atmosphere.rim ?? rim;
    if (rim !== null) {
      rim = { ...rim, strength: unit(rim.strength * (atmosphere.rimStrength ?? 1)) };
    }
    if (atmosphere.shift !== undefined) shifts.push(atmosphere.shift);
  }
  for (const change of choice.lights) {
    light = {
      direction: change.direction ?? light.direction,
      colour: change.colour ?? light.colour,
      strength: change.strength ?? light.strength,
    };
    if (change.rim !== undefined) rim = change.rim;
  }
  const [firstLit] = choice.litColours;
  const lastLit = choice.litColours.at(-1);
  if (firstLit !== undefined && lastLit !== undefined) {
    light = { ...light, colour: mix(light.colour, firstLit, litKeyTint) };
    rim = { colour: lastLit, strength: Math.max(rim?.strength ?? 0, litRimStrength) };
  }

  const shift = total([...shifts, ...choice.shifts]);
  const treatment = choice.treatment ?? 'none';
  const grade = neutralScene.grade;
  return sceneWith({
    place,
    time,
    weather,
    palette,
    light,
    rim,
    framing: choice.framing ?? 'portrait',
    depth: unit(look.depth + shift.depth),
    grade: {
      saturation: clamp(grade.saturation + shift.saturation, 0, 2),
      contrast: clamp(grade.contrast + shift.contrast, 0.5, 1.6),
      brightness: clamp(grade.brightness + shift.brightness, 0.5, 1.5),
      warmth: clamp(grade.warmth + shift.warmth, -1, 1),
    },
    treatment,
    duotone: treatment === 'duotone' ? duotoneOf(choice.palette) : null,
    grain: unit(neutralScene.grain + shift.grain),
    vignette: unit(neutralScene.vignette + shift.vignette),
    clothing: choice.clothing,
  });
}

/** A coloured light tints the key this much, and is a rim at least this strong. */
const litKeyTint = 0.4;
const litRimStrength = 0.55;

/** The colours named for the backdrop, darker one in the shadows; one colour gets its own shade. */
function duotoneOf(colours: Rgb[]): [Rgb, Rgb] {
  const [first, second] = colours;
  if (first === undefined) return defaultDuotone;
  const pair: [Rgb, Rgb] = [second ?? scale(first, 0.25), first];
  return luminance(pair[0]) <= luminance(pair[1]) ? pair : [pair[1], pair[0]];
}

function total(shifts: Shift[]): Required<Shift> {
  const sum = (part: keyof Shift) => shifts.reduce((all, shift) => all + (shift[part] ?? 0), 0);
  return {
    saturation: sum('saturation'),
    contrast: sum('contrast'),
    brightness: sum('brightness'),
    warmth: sum('warmth'),
    grain: sum('grain'),
    vignette: sum('vignette'),
    depth: sum('depth'),
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function unit(value: number): number {
  return clamp(value, 0, 1);
}

function channels(colour: Rgb, channel: (value: number, index: number) => number): Rgb {
  const [red, green, blue] = colour.map((value, index) =>
    clamp(Math.round(channel(value, index)), 0, 255),
  );
  return [red!, green!, blue!];
}

function scale(colour: Rgb, factor: number): Rgb {
  return channels(colour, (value) => value * factor);
}

function mix(colour: Rgb, other: Rgb, amount: number): Rgb {
  return channels(colour, (value, index) => value + (other[index]! - value) * amount);
}

/** Pushes a colour away from its own grey: 0 leaves it, 1 doubles its colourfulness. */
function vivid(colour: Rgb, amount: number): Rgb {
  const grey = (colour[0] + colour[1] + colour[2]) / 3;
  return channels(colour, (value) => grey + (value - grey) * (1 + amount));
}

function luminance([red, green, blue]: Rgb): number {
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}
