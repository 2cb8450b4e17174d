/**
 * Sensor sums in one-minute tumbling and 30-second sliding windows of event time.
 */
package io.weir.samples.sensors;
