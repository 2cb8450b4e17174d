/**
 * The errors Weir throws to applications: {@link io.weir.errors.WeirException} and one subtype
 * per kind of failure (configuration, topology, cluster, state store, serde, processing, the
 * instance's life cycle), each saying what to do. Uses nothing of Weir; every module uses it.
 */
package io.weir.errors;
