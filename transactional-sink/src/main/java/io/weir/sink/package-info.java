/**
 * The delivery guarantees an application chooses ({@link io.weir.sink.DeliveryGuarantee}). Uses
 * nothing of Weir but {@code io.weir.errors}.
 */
package io.weir.sink;
