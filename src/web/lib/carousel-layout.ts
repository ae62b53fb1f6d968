/**
 * Card widths of a horizontal preset row (spec §9): 2 per view on phones, 4 from the 768 px
 * breakpoint, never wider than the specification's 320 px card (max-w-80). The row's gap (1rem,
 * gap-4) is subtracted so exactly that many fit; the dashboard and the landing page share it.
 */
export const carouselItemClasses =
  'w-[calc((100%-1rem)/2)] max-w-80 shrink-0 snap-start md:w-[calc((100%-3rem)/4)]';
