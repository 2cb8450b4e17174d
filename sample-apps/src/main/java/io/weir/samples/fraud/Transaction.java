package io.weir.samples.fraud;

/** A card transaction: where (latitude, longitude in degrees) and when (epoch ms) a card paid how much. */
public record Transaction(String id, String card, double amount, double lat, double lon, long time) {}
