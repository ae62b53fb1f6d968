// Constants that vite.config.ts (`define`) writes into the code at build time.

/** The year the web app was built. */
declare const __BUILD_YEAR__: number;
