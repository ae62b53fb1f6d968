// Build-time only (see scripts/vite-plugins/prerender-landing.ts): renders the landing page to
// HTML, so its response carries the page and the browser paints it before any script has run.
// Nobody is signed in and no catalog data is loaded here: the page shows what a first visit
// shows before its requests return (reserved space, no account buttons), which is exactly what
// the browser's first render produces when it hydrates this markup (landing.tsx).
import { prerender } from 'react-dom/static';
import { pageTitleMessages } from '../common/messages/shell.ts';
import { LandingApp } from './features/landing/landing-app.tsx';

export interface PrerenderedPage {
  /** What goes inside `<div id="root">`. */
  html: string;
  /** The page's `<title>`, which the app would otherwise only set once it runs. */
  title: string;
}

export async function prerenderLanding(): Promise<PrerenderedPage> {
  const { prelude } = await prerender(<LandingApp />, {
    // However large a part is, it stays in place: React would otherwise send a large part after
    // the rest, with an inline script to move it in, which the Content-Security-Policy refuses.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  const html = await new Response(prelude).text();
  if (/<script|<template/i.test(html)) {
    throw new Error('The prerendered landing page contains a script or a late part');
  }
  return { html, title: pageTitleMessages.home };
}
