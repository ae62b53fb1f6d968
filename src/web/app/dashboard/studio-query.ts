import { dashboardQuery } from '../../../common/product/routes.ts';

export type StudioMain = (typeof dashboardQuery.main)[number];
export type StudioSub = (typeof dashboardQuery.sub)[number];

export interface StudioQuery {
  main: StudioMain;
  sub: StudioSub;
}

function isMain(value: string | null): value is StudioMain {
  return (dashboardQuery.main as readonly (string | null)[]).includes(value);
}

function isSub(value: string | null): value is StudioSub {
  return (dashboardQuery.sub as readonly (string | null)[]).includes(value);
}

/**
 * Reads /dashboard's query: `main` and `sub`, and the older forms that links and bookmarks still
 * carry (`tab=generated|custom|tryon`, `view=bulk`). `main`/`sub` win when both are present;
 * anything unknown falls back to the defaults (generation, presets). `view=bulk` was the bulk
 * custom-prompt view, which lives in the Custom tab.
 */
export function readStudioQuery(params: URLSearchParams): StudioQuery {
  const tab = params.get('tab');
  const main: StudioMain = isMain(params.get('main'))
    ? (params.get('main') as StudioMain)
    : tab === 'tryon'
      ? 'tryon'
      : dashboardQuery.defaultMain;
  let sub: StudioSub = dashboardQuery.defaultSub;
  if (isSub(params.get('sub'))) sub = params.get('sub') as StudioSub;
  else if (isSub(tab)) sub = tab;
  else if (params.get('view') === 'bulk') sub = 'custom';
  return { main, sub };
}

/** The canonical query for a studio position; the older forms are dropped. */
export function writeStudioQuery(current: URLSearchParams, next: StudioQuery): URLSearchParams {
  const params = new URLSearchParams(current);
  params.delete('tab');
  params.delete('view');
  params.set('main', next.main);
  params.set('sub', next.sub);
  return params;
}
