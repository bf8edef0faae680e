/**
 * The suite across two hosts, beyond its cases: the checks of a peer that reboots while
 * queue pairs are connected to it.
 */
package dev.verbs4j.conformance.twohost;
