/** Memory windows of type 1 and 2, their binding, invalidation and refusals, and fast registration. */
package dev.verbs4j.conformance.memwindow;
