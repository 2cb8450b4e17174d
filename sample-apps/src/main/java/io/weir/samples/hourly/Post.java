package io.weir.samples.hourly;

/**
 * A post tagged with a hashtag, the value of a record on the posts topic (the record key is the
 * hashtag). JSON: {@code {"hashtag":"#weir","author":"user-3","postedAt":1764464400000}}. The hours
 * are hours of {@code postedAt}, the event time.
 *
 * @param hashtag  what is counted, also the record key
 * @param author   who posted
 * @param postedAt when, epoch milliseconds
 */
public record Post(String hashtag, String author, long postedAt) {}
