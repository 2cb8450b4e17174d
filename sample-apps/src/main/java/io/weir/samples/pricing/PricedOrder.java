package io.weir.samples.pricing;

/** An order with the unit price the pricing service gave its product, in cents. */
public record PricedOrder(String id, String customer, String product, int quantity, long unitCents) {

    /** What the order costs: quantity times unit price, in cents. */
    public long totalCents() {
        return quantity * unitCents;
    }
}
