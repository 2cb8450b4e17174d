/**
 * Interactive queries: which instance holds a key of a store ({@link io.weir.internal.query.Ownership},
 * {@link io.weir.internal.query.KeyLocator}), keys in and values out as text and JSON
 * ({@link io.weir.internal.query.KeyText}, {@link io.weir.internal.query.ValueJson}), and the
 * service the HTTP endpoints ask ({@link io.weir.internal.query.StoreQueryService}), which answers
 * from this instance's committed state or forwards to the owner.
 */
package io.weir.internal.query;
