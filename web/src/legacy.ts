/**
 * The site's script for the oldest engines it serves, built apart (web/build/legacy-build.ts) and
 * started by src/boot-route.ts only in them: the built-ins they lack, then the site itself.
 */
import './lib/legacy-built-ins';
import './main';
