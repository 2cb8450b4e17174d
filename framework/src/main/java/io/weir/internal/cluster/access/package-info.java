/**
 * Access to the cluster: the ACLs an application needs (the plan the CLI prints), the check at
 * start that its principal has them, and what an authorization failure names. May use the
 * topology and the configuration below it.
 */
package io.weir.internal.cluster.access;
