/**
 * @predgate/catalog: the cross-venue catalog (ingestion, the embedded and
 * MongoDB stores, Router queries). Its contents arrive with the catalog work;
 * the package exists now so the workspace has its final shape.
 */
export {};
