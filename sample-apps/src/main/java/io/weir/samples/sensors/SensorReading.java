package io.weir.samples.sensors;

/**
 * One measurement of a sensor, the value of a record on the readings topic (the record key is the
 * sensor id). JSON: {@code {"sensor":"sensor-1","value":9,"measuredAt":1764464400000}}. The
 * windows use {@code measuredAt}, the event time, not the Kafka record's timestamp (which is when
 * it was sent).
 *
 * @param sensor     the sensor's id, also the record key
 * @param value      what it measured
 * @param measuredAt when it measured, epoch milliseconds
 */
public record SensorReading(String sensor, long value, long measuredAt) {}
