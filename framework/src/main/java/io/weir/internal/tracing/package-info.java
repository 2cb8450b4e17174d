/**
 * Tracing with OpenTelemetry: a span per input record that continues the W3C trace context its
 * headers carry, the context written into what the record produces, and spans for outputs made
 * from several inputs. Off, and free, when the application's OpenTelemetry propagates nothing
 * (the no-op default). Below the task, which calls it around every record.
 */
package io.weir.internal.tracing;
