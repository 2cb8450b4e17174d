/**
 * The processor API: processors and their context, records and headers, punctuation, task ids,
 * and the store builders ({@link io.weir.processor.Stores}). Interfaces and values only; may use
 * the public packages {@code serde}, {@code state} and {@code time}, never an internal room.
 */
package io.weir.processor;
