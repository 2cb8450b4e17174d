/**
 * Security of the instance's HTTP endpoints: TLS material that is re-read when its files change,
 * bearer tokens, the access rule per path, and the client that peers call each other with. Reads
 * the configuration; knows nothing of the endpoints themselves.
 */
package io.weir.internal.http.security;
