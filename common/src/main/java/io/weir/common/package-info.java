/**
 * Values every module shares: {@link io.weir.common.KeyValue}, the one pair type of the API.
 * Uses nothing of Weir.
 */
package io.weir.common;
