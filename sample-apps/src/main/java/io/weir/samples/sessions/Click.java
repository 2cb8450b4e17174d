package io.weir.samples.sessions;

/**
 * A visitor's click on the website, the value of a record on the clicks topic (the record key is
 * the visitor). JSON: {@code {"visitor":"A","page":"/cart","clickedAt":1764464400000}}. Sessions
 * use {@code clickedAt}, the event time.
 *
 * @param visitor   who clicked, also the record key
 * @param page      the page clicked
 * @param clickedAt when, epoch milliseconds
 */
public record Click(String visitor, String page, long clickedAt) {}
