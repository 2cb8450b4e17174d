package io.weir.samples.alerts;

/**
 * One temperature measurement from a sensor, the value of a record on the readings topic (the
 * record key is the sensor id). Serialized as JSON with {@code Serdes.json(Reading.class)}:
 * {@code {"sensor":"sensor-3","temperature":94.2,"timestamp":1764464000000}}.
 *
 * @param sensor      the sensor's id, also the record key
 * @param temperature degrees Fahrenheit
 * @param timestamp   when the sensor measured, epoch milliseconds
 */
public record Reading(String sensor, double temperature, long timestamp) {}
