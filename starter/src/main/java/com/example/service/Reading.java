package com.example.service;

/**
 * A temperature reading of one sensor, as JSON on the {@code readings} topic (keyed by sensor):
 * {@code {"sensor":"sensor-1","temperature":93.5,"timestamp":1767225600000}}.
 *
 * @param temperature degrees Fahrenheit
 * @param timestamp   when it was measured, epoch milliseconds
 */
public record Reading(String sensor, double temperature, long timestamp) {
}
