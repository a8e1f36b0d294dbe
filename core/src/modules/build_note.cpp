#include <vrambench/core/modules/build_note.hpp>
#include <vrambench/plugin.h>

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace vrb {

namespace {

// The SHT_NOTE sections of a 64-bit little-endian ELF file, read as the file holds them:
// the module is not asked (it may be another machine's, or fail to load).
std::vector<std::string> note_sections(std::ifstream &in)
{
    Elf64_Ehdr header{};
    if (!in.read(reinterpret_cast<char *>(&header), sizeof header)) return {};
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_shentsize != sizeof(Elf64_Shdr))
        return {};
    std::vector<std::string> notes;
    for (uint16_t i = 0; i < header.e_shnum && i < 4096; ++i) {
        Elf64_Shdr section{};
        in.seekg(static_cast<std::streamoff>(header.e_shoff + uint64_t{i} * sizeof section));
        if (!in.read(reinterpret_cast<char *>(&section), sizeof section)) return notes;
        if (section.sh_type != SHT_NOTE || section.sh_size > (1u << 20)) continue;
        std::string bytes(section.sh_size, '\0');
        in.seekg(static_cast<std::streamoff>(section.sh_offset));
        if (in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) notes.push_back(std::move(bytes));
    }
    return notes;
}

} // namespace

ModuleBuild module_build(const std::filesystem::path &file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in) return ModuleBuild::unknown;
    constexpr std::string_view owner = VRB_BUILD_NOTE_NAME;
    for (const std::string &notes : note_sections(in)) {
        // Each note: name size, description size, type, the name and the description,
        // each padded to 4 bytes.
        std::size_t at = 0;
        auto padded = [](uint64_t n) { return (n + 3) / 4 * 4; };
        while (at + 12 <= notes.size()) {
            uint32_t name_size = 0, desc_size = 0, type = 0;
            std::memcpy(&name_size, notes.data() + at, 4);
            std::memcpy(&desc_size, notes.data() + at + 4, 4);
            std::memcpy(&type, notes.data() + at + 8, 4);
            const uint64_t name_at = at + 12, desc_at = name_at + padded(name_size);
            if (desc_at + desc_size > notes.size()) break;
            const std::string_view name(notes.data() + name_at, name_size > 0 ? name_size - 1 : 0);
            if (name == owner && type == VRB_BUILD_NOTE_TYPE && desc_size >= 4) {
                uint32_t optimized = 0;
                std::memcpy(&optimized, notes.data() + desc_at, 4);
                return optimized ? ModuleBuild::optimized : ModuleBuild::unoptimized;
            }
            at = desc_at + padded(desc_size);
        }
    }
    return ModuleBuild::unknown;
}

std::string_view to_string(ModuleBuild build)
{
    switch (build) {
    case ModuleBuild::optimized: return "optimized";
    case ModuleBuild::unoptimized: return "unoptimized";
    default: return "unknown";
    }
}

std::string_view unoptimized_warning()
{
    return "built without optimisation (-O0): its figures measure its own unoptimised loops, not the memory; "
           "build it with -DCMAKE_BUILD_TYPE=Release";
}

} // namespace vrb
