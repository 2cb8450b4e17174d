// tag::customer[]
package com.example.orders;

/**
 * A customer, as JSON on the compacted topic {@code customers} (keyed by customer id):
 * {@code {"name":"Ada","region":"north"}}. A new record for an id replaces the customer; a
 * tombstone (no value) deletes it.
 */
public record Customer(String name, String region) {
}
// end::customer[]
