// LICENSES.md of the content pack: every source photo, its licence and attribution, and the
// pack's pictures made from it.
import { writeFileSync } from 'node:fs';

export interface Source {
  person: string;
  files: string[];
  licence: string;
  attribution: string;
  origin: string;
  pictures: string[];
}

/** The photos used as they are (guidelines, the quiz's real half): assets/seed/LICENSES.md in full. */
const photosAsTheyAre = `## Photos used as they are (resized only)

| Pack pictures | Source photo | Shows | Licence |
| --- | --- | --- | --- |
| \`pictures/guidelines/good-1..4.jpg\`, \`two-people.png\`, \`sunglasses.png\`, \`too-dark.png\` | \`assets/seed/person-a/a-01..08.jpg\` (GitHub \`debruine/webmorphR.stim\`, \`inst/zoom\`, \`inst/lisa\`) | Lisa DeBruine, selfies (the last three edited by us: two side by side, sunglasses drawn, darkened) | CC0 1.0 |
| \`pictures/guidelines/blurry.jpg\` | \`assets/seed/quality/blurry.jpg\` (webmorphR.stim \`inst/zoom/30cm.jpg\`, blurred) | Lisa DeBruine | CC0 1.0 |
| \`pictures/guidelines/tiny-face.jpg\` | \`assets/seed/quality/tiny-face.jpg\` (webmorphR.stim \`inst/zoom/60cm.jpg\` + scikit-image \`rocket.jpg\`) | Lisa DeBruine in the DSCOVR launch photo | CC0 1.0 + public domain (SpaceX 2015 release) |
| \`pictures/guidelines/no-face.jpg\` | \`assets/seed/not-a-face/cat.jpg\` (scikit-image \`chelsea.png\`, Stefan van der Walt) | Chelsea the cat | CC0 1.0 |
| \`pictures/quiz/real-1.webp\` | \`assets/seed/real-portraits/hopper.jpg\` (matplotlib sample data, Wikimedia Commons File:Grace_Hopper.jpg) | Commodore Grace M. Hopper, official portrait, 1984 | Public domain (US Navy photograph) |
| \`pictures/quiz/real-2..7.webp\` | \`assets/seed/real-portraits/{chu,beatty,clyburn,duckworth,garamendi,horsford}.jpg\` (GitHub \`unitedstates/images\`, \`congress/225x275\`) | Official Member photos of Judy Chu, Joyce Beatty, James E. Clyburn, Tammy Duckworth, John Garamendi, Steven Horsford | Public domain (US Government Publishing Office Member Guide; repository CC0) |

The official portraits of real people (the quiz's real half, and the six members of Congress
whose photos the engine made the "AI" half's official portraits from) are shown only as neutral
quiz tiles, never as preset or marketing pictures; nothing may suggest that they, the US Navy or
the US Congress endorse the product.
`;

export function writeLicences(file: string, sources: Source[]): void {
  const rows = sources.map(
    (source) =>
      `| ${source.person} | ${source.files.map((f) => `\`${f}\``).join(', ')} | ${source.origin} | ${source.licence} | ${source.attribution} | ${source.pictures.length}: ${source.pictures.map((p) => `\`${p}\``).join(', ')} |`,
  );
  writeFileSync(
    file,
    `# Default content pack: sources and licences

Made by \`npm run content:build\` (scripts/content/build.ts). Every picture of a person in the pack
is either one of the photos below used as it is, or a picture made by the offline studio engine
from that person's photos (cut out, composed into a painted scene, relit, finished, upscaled).

The composite faces average four real people each (no real individual is shown). CC BY 4.0
requires attribution, given here and in the footer of the site's public pages: "Composite faces: Lisa DeBruine
(2016), Young adult composite faces, figshare, https://doi.org/10.6084/m9.figshare.4055130.v1,
licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). Cropped, resized and
restyled by Likeness." CC BY 4.0 grants no publicity rights and implies no endorsement.

## People pictured by the studio engine

| Person | Source photos | Origin | Licence | Attribution | Pack pictures |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

${photosAsTheyAre}`,
  );
}
