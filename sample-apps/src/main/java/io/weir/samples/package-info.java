/**
 * The runnable sample applications, their launcher ({@code serve}, {@code load}) and the image's
 * entry point. Each sample lives in a package of its own.
 */
package io.weir.samples;
