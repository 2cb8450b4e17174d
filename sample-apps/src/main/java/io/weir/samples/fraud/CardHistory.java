package io.weir.samples.fraud;

/**
 * What a card's history keeps to judge its next transaction: the previous transaction's place and
 * time, and the running mean of its amounts over {@code count} transactions.
 */
public record CardHistory(double lat, double lon, long time, long count, double meanAmount) {

    static CardHistory first(Transaction t) {
        return new CardHistory(t.lat(), t.lon(), t.time(), 1, t.amount());
    }

    CardHistory after(Transaction t) {
        return new CardHistory(
                t.lat(), t.lon(), t.time(), count + 1, meanAmount + (t.amount() - meanAmount) / (count + 1));
    }
}
