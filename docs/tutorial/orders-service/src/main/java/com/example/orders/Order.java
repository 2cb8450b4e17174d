// tag::order[]
package com.example.orders;

/**
 * An order, as JSON on the topic {@code orders} (keyed by order id):
 * {@code {"customerId":"c-1","amount":42.5,"placedAt":1767225600000}}.
 *
 * @param placedAt when the customer placed it, epoch milliseconds: the order's event time
 */
public record Order(String customerId, double amount, long placedAt) {
}
// end::order[]
