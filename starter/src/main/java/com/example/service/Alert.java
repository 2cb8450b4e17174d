package com.example.service;

/**
 * A reading above {@link AlertService#THRESHOLD}, as JSON on the {@code alerts} topic (keyed by
 * sensor).
 *
 * @param temperature degrees Fahrenheit
 * @param timestamp   when the reading was measured, epoch milliseconds
 */
public record Alert(String sensor, double temperature, long timestamp) {

    static Alert of(Reading reading) {
        return new Alert(reading.sensor(), reading.temperature(), reading.timestamp());
    }
}
