/**
 * Word count: a repartitioned, stateful count of the words of a text.
 */
package io.weir.samples.wordcount;
