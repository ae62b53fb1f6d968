/**
 * Classes for the landing's sections below the hero. Until one comes near the viewport the
 * browser skips its style, layout and paint (`content-visibility: auto`), so the first paint of
 * this long page only pays for what is on screen; the intrinsic size stands in for a section not
 * drawn yet (`auto`: its real size once it has been drawn). The section's paint is contained:
 * nothing in it may draw outside its box.
 */
export const belowTheFold = '[content-visibility:auto] [contain-intrinsic-size:auto_50rem]';
