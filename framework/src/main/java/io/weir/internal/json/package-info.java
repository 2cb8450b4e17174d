/**
 * The one JSON configuration of Weir's own documents (topology, savepoint manifests, control
 * messages, HTTP answers). May use nothing of Weir; every room above the configuration may use
 * it.
 */
package io.weir.internal.json;
