// The chase by address as the module embeds it (shaders/chase_addresses.comp, compiled by
// glslc): between two of its dependent loads lies nothing but the load, as
// tests/gpu/chase_ptx_test.sh checks of the CUDA walk. Read in the SPIR-V words: each
// load of a 64-bit link through a PhysicalStorageBuffer pointer takes its address from
// the load before it, or from the loop's phi, through nothing but a conversion of the
// value to a pointer and a zero-offset access chain; and the longest run of such loads
// in a row is at least the walk's unroll. The checker is first shown walks with an add
// on that path (chase_add_probe.comp), which it must refuse.
#include "vulkan_spirv.hpp"
#include "vulkan_spirv_probes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace vrb::vulkan {
namespace {

// Opcodes and operands of the SPIR-V specification (unified1, section 3).
enum : uint32_t {
    OpTypeInt = 21,
    OpTypePointer = 32,
    OpConstant = 43,
    OpFunction = 54,
    OpFunctionEnd = 56,
    OpLoad = 61,
    OpStore = 62,
    OpAccessChain = 65,
    OpInBoundsAccessChain = 66,
    OpPtrAccessChain = 67,
    OpVectorShuffle = 79,
    OpCompositeExtract = 81,
    OpCompositeInsert = 82,
    OpCopyObject = 83,
    OpConvertUToPtr = 120,
    OpBitcast = 124,
    OpExtInst = 12,
    OpPhi = 245,
    OpLoopMerge = 246,
    OpSelectionMerge = 247,
    OpLabel = 248,
    OpBranch = 249,
    OpBranchConditional = 250,
    OpSwitch = 251,
    OpReturn = 253,
    OpReturnValue = 254,
    OpUnreachable = 255,
    OpControlBarrier = 224,
    OpMemoryBarrier = 225,
    OpLine = 8,
    OpNoLine = 317,
};
constexpr uint32_t kPhysicalStorageBuffer = 5349;

struct Instruction {
    uint32_t opcode = 0;
    std::vector<uint32_t> words; // after the opcode word
};

// What the check finds in one shader.
struct WalkPath {
    uint32_t link_loads = 0;  // loads of 64-bit values through PhysicalStorageBuffer pointers
    uint32_t longest_run = 0; // of such loads, each addressed by the one before
    std::string on_path;      // the first other instruction on a link's address path that a link load feeds
};

class Module {
  public:
    explicit Module(std::span<const uint32_t> code)
    {
        EXPECT_GE(code.size(), 5u);
        EXPECT_EQ(code[0], 0x07230203u) << "not SPIR-V";
        bool in_function = false;
        for (std::size_t at = 5; at < code.size();) {
            const uint32_t count = code[at] >> 16, opcode = code[at] & 0xffff;
            if (count == 0 || at + count > code.size()) {
                ADD_FAILURE() << "malformed instruction at word " << at;
                return;
            }
            Instruction in{opcode, std::vector<uint32_t>(code.begin() + at + 1, code.begin() + at + count)};
            at += count;
            if (opcode == OpFunction) in_function = true;
            if (opcode == OpFunctionEnd) in_function = false;
            if (opcode == OpTypeInt && !in.words.empty()) int_width_[in.words[0]] = in.words[1];
            if (opcode == OpTypePointer && in.words.size() >= 3) pointers_[in.words[0]] = {in.words[1], in.words[2]};
            if (opcode == OpConstant && in.words.size() >= 3) constants_[in.words[1]] = in.words[2];
            if (in_function && has_type_and_result(opcode) && in.words.size() >= 2) defs_[in.words[1]] = in;
        }
    }

    WalkPath walk() const
    {
        WalkPath path;
        std::map<uint32_t, uint32_t> run; // link load -> loads in a row ending at it
        std::function<uint32_t(uint32_t)> run_to = [&](uint32_t load) -> uint32_t {
            if (auto it = run.find(load); it != run.end()) return it->second;
            const uint32_t before = address_source(defs_.at(load).words[2]);
            const uint32_t n = before && is_link_load(before) ? run_to(before) + 1 : 1;
            return run[load] = n;
        };
        for (const auto &[id, in] : defs_) {
            if (!is_link_load(id)) continue;
            ++path.link_loads;
            path.longest_run = std::max(path.longest_run, run_to(id));
            std::set<uint32_t> seen;
            if (path.on_path.empty()) path.on_path = foreign_on_path(in.words[2], seen);
        }
        return path;
    }

  private:
    static bool has_type_and_result(uint32_t op)
    {
        switch (op) {
        case OpLabel:
        case OpBranch:
        case OpBranchConditional:
        case OpSwitch:
        case OpReturn:
        case OpReturnValue:
        case OpUnreachable:
        case OpStore:
        case OpLoopMerge:
        case OpSelectionMerge:
        case OpFunctionEnd:
        case OpControlBarrier:
        case OpMemoryBarrier:
        case OpLine:
        case OpNoLine: return false;
        default: return true;
        }
    }

    const Instruction *def(uint32_t id) const
    {
        const auto it = defs_.find(id);
        return it == defs_.end() ? nullptr : &it->second;
    }

    // A load of a 64-bit integer through a PhysicalStorageBuffer pointer.
    bool is_link_load(uint32_t id) const
    {
        const Instruction *in = def(id);
        if (!in || in->opcode != OpLoad || in->words.size() < 3) return false;
        const Instruction *pointer = def(in->words[2]);
        if (!pointer) return false;
        const auto p = pointers_.find(pointer->words[0]);
        const auto width = int_width_.find(in->words[0]);
        return p != pointers_.end() && p->second.first == kPhysicalStorageBuffer && width != int_width_.end() &&
               width->second == 64;
    }

    // Whether `in` only renames its operand as an address: a conversion to a pointer, a
    // bitcast, a copy, or an access chain whose indices are all the constant 0.
    bool passes_through(const Instruction &in) const
    {
        switch (in.opcode) {
        case OpConvertUToPtr:
        case OpBitcast:
        case OpCopyObject: return true;
        case OpAccessChain:
        case OpInBoundsAccessChain:
        case OpPtrAccessChain:
            for (std::size_t k = 3; k < in.words.size(); ++k) {
                const auto c = constants_.find(in.words[k]);
                if (c == constants_.end() || c->second != 0) return false;
            }
            return true;
        default: return false;
        }
    }

    // The value an address is made of through pass-through instructions only, or 0.
    uint32_t address_source(uint32_t id) const
    {
        for (const Instruction *in = def(id); in; in = def(id)) {
            if (!passes_through(*in)) return id;
            id = in->words[2];
        }
        return id;
    }

    // The ids an instruction reads (literal operands left out).
    static std::vector<uint32_t> operands(const Instruction &in)
    {
        const auto &w = in.words;
        switch (in.opcode) {
        case OpLoad:
        case OpCompositeExtract: return {w[2]};
        case OpExtInst: return std::vector<uint32_t>(w.begin() + 4, w.end());
        case OpVectorShuffle: return {w[2], w[3]};
        case OpCompositeInsert: return {w[2], w[3]};
        case OpPhi: {
            std::vector<uint32_t> values;
            for (std::size_t k = 2; k < w.size(); k += 2)
                values.push_back(w[k]);
            return values;
        }
        default: return std::vector<uint32_t>(w.begin() + 2, w.end());
        }
    }

    // Whether a link load's value reaches `id`.
    bool fed_by_link(uint32_t id, std::set<uint32_t> &seen) const
    {
        if (!seen.insert(id).second) return false;
        if (is_link_load(id)) return true;
        const Instruction *in = def(id);
        if (!in) return false;
        for (uint32_t operand : operands(*in))
            if (fed_by_link(operand, seen)) return true;
        return false;
    }

    // Walks back from a link load's pointer to the loads before it (through phis, across
    // the loop's back edge): the first instruction other than a pass-through that a link
    // load's value passes through on the way, by opcode, or "".
    std::string foreign_on_path(uint32_t id, std::set<uint32_t> &seen) const
    {
        if (!seen.insert(id).second || is_link_load(id)) return "";
        const Instruction *in = def(id);
        if (!in) return "";
        if (passes_through(*in)) return foreign_on_path(in->words[2], seen);
        if (in->opcode == OpPhi) {
            for (uint32_t value : operands(*in))
                if (std::string found = foreign_on_path(value, seen); !found.empty()) return found;
            return "";
        }
        std::set<uint32_t> fed;
        return fed_by_link(id, fed) ? "opcode " + std::to_string(in->opcode) : "";
    }

    std::map<uint32_t, uint32_t> int_width_;                     // type id -> bits
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> pointers_; // type id -> storage class, pointee
    std::map<uint32_t, uint32_t> constants_;                     // id -> first word
    std::map<uint32_t, Instruction> defs_;                       // in functions
};

// The walk's unroll (UNROLL in shaders/chase_addresses.comp).
constexpr uint32_t kUnroll = 8;

template <std::size_t N> WalkPath walk_of(const uint32_t (&code)[N])
{
    return Module(std::span<const uint32_t>(code, N)).walk();
}

TEST(ChaseSpirv, the_checker_refuses_a_walk_with_an_add_in_every_step)
{
    const WalkPath path = walk_of(test::spirv::chase_add_every_step);
    EXPECT_GE(path.link_loads, kUnroll);
    EXPECT_LT(path.longest_run, 2u);
    EXPECT_EQ(path.on_path, "opcode 128"); // OpIAdd
}

TEST(ChaseSpirv, the_checker_refuses_a_walk_with_an_add_once_a_round)
{
    const WalkPath path = walk_of(test::spirv::chase_add_per_round);
    EXPECT_GE(path.longest_run, kUnroll); // the run alone would pass it
    EXPECT_EQ(path.on_path, "opcode 128");
}

TEST(ChaseSpirv, the_index_walk_loads_no_link)
{
    EXPECT_EQ(walk_of(spirv::chase_single).link_loads, 0u);
}

TEST(ChaseSpirv, the_walk_by_address_has_nothing_but_the_load_between_two_dependent_loads)
{
    for (const auto &[name, path] : {std::pair{"chase_addresses_single", walk_of(spirv::chase_addresses_single)},
                                     std::pair{"chase_addresses_uniform", walk_of(spirv::chase_addresses_uniform)}}) {
        SCOPED_TRACE(name);
        EXPECT_GE(path.longest_run, kUnroll) << "dependent link loads in a row";
        EXPECT_EQ(path.on_path, "") << "lies between two dependent loads";
    }
}

} // namespace
} // namespace vrb::vulkan
