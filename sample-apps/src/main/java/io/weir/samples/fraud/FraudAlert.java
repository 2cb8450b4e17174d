package io.weir.samples.fraud;

/**
 * A suspicious transaction: which, why ({@code impossible-travel} or {@code amount-spike}), the
 * figure that tripped the rule, and the card's holder ({@code null} when the card has none on record).
 */
public record FraudAlert(String transaction, String card, String reason, double figure, double amount, String holder) {}
