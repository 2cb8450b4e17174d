/**
 * A Java client for the instances' query endpoints ({@code GET /stores/{store}/keys/{key}} and
 * its {@code /windows} and {@code /sessions}): {@link io.weir.query.StoreQueryClient} asks any
 * instance of an application, which answers or forwards to the owner of the key, and retries
 * across the instances it knows while a task moves.
 */
package io.weir.query;
