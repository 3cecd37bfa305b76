/**
 * @predgate/archive: full Polymarket L2 order books through time and their
 * downloadable files. Its contents arrive with the archive work; the package
 * exists now so the workspace has its final shape.
 */
export {};
