package io.weir.samples.pricing;

/**
 * An order as the shop writes it: who ordered how many of which product, without a price. Keyed
 * by {@code id} on the orders topic, as JSON.
 */
public record Order(String id, String customer, String product, int quantity) {

    /** This order at {@code unitCents} a piece. */
    PricedOrder priced(long unitCents) {
        return new PricedOrder(id, customer, product, quantity, unitCents);
    }
}
