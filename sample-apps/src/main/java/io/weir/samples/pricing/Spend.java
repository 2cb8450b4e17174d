package io.weir.samples.pricing;

/** What a customer spent: how many priced orders, and their sum in cents. The totals table's row. */
public record Spend(long orders, long cents) {

    /** Before the first order. */
    public static Spend none() {
        return new Spend(0, 0);
    }

    /** This spend with {@code order} added. */
    public Spend plus(PricedOrder order) {
        return new Spend(orders + 1, cents + order.totalCents());
    }

    @Override
    public String toString() {
        return orders + " orders, " + String.format("%d.%02d", cents / 100, cents % 100);
    }
}
