/**
 * @predgate/server: the hapi gateway and the `predgate` CLI. Its contents
 * arrive with the gateway work; the package exists now so the workspace has
 * its final shape.
 */
export {};
