package io.weir.samples.fraud;

/** Who holds a card: the card-holders table's row. */
public record CardHolder(String name, String homeCity) {}
