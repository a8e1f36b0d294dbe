// Sums a 64-bit value over a workgroup through shared memory; the result is valid in
// invocation 0. Shared memory instead of subgroup operations: it needs no optional
// feature and keeps carries exact.
#ifndef VRAMBENCH_REDUCTION_GLSL
#define VRAMBENCH_REDUCTION_GLSL

shared uvec2 reduction_words[LOCAL_SIZE];

uvec2 workgroup_sum(uvec2 value)
{
    uint lid = gl_LocalInvocationID.x;
    barrier(); // a previous reduction may still be reading the words
    reduction_words[lid] = value;
    barrier();
    for (uint half_size = LOCAL_SIZE / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size) reduction_words[lid] = add64(reduction_words[lid], reduction_words[lid + half_size]);
        barrier();
    }
    return reduction_words[0];
}

// The lowest of a 64-bit value over a workgroup, valid in invocation 0.
uvec2 workgroup_min(uvec2 value)
{
    uint lid = gl_LocalInvocationID.x;
    barrier(); // a previous reduction may still be reading the words
    reduction_words[lid] = value;
    barrier();
    for (uint half_size = LOCAL_SIZE / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size && less64(reduction_words[lid + half_size], reduction_words[lid]))
            reduction_words[lid] = reduction_words[lid + half_size];
        barrier();
    }
    return reduction_words[0];
}

#endif
